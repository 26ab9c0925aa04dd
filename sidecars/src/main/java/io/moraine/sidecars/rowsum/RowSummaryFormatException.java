package io.moraine.sidecars.rowsum;

/** A sidecar that cannot be used: the reader turns it into "absent", counted by {@link Kind}. */
public final class RowSummaryFormatException
        extends Exception
{
    public enum Kind
    {
        /** Fewer bytes than the header promises. */
        SHORT_READ,
        /** A format version this reader does not know. */
        UNKNOWN_VERSION,
        /** Bad magic, checksum, tag, width or contents. */
        CORRUPT,
    }

    private final Kind kind;

    public RowSummaryFormatException(Kind kind, String message)
    {
        super(message);
        this.kind = kind;
    }

    public Kind kind()
    {
        return kind;
    }
}
