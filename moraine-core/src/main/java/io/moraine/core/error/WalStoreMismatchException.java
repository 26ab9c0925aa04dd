package io.moraine.core.error;

/**
 * An open named a write-ahead-log location other than the one the store records (or named one where the store
 * records none, or none where it records one). Opening anyway would replay the wrong log: commits acknowledged
 * through the recorded one would be hidden or lost. Nothing was written.
 */
public class WalStoreMismatchException
        extends InvalidArgumentException
{
    private final String recorded;
    private final String given;

    public WalStoreMismatchException(String message, String recorded, String given)
    {
        super(message);
        this.recorded = recorded;
        this.given = given;
    }

    /** The WAL location the store records, or {@code "none"} (the log is in the catalog store). */
    public String recorded()
    {
        return recorded;
    }

    /** The WAL location the open named, or {@code "none"}. */
    public String given()
    {
        return given;
    }
}
