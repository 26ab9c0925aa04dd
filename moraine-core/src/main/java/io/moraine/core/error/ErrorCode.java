package io.moraine.core.error;

/**
 * The error codes of moraine, numbered as in the extension surface's C ABI error table (RFC 0006), so that every
 * front end (Trino, Spark, the DuckDB shim) reports the same code for the same failure.
 */
public enum ErrorCode
{
    NOT_FOUND(1),
    ALREADY_EXISTS(2),
    CONSTRAINT(3),
    COMMIT_CONFLICT(4),
    CORRUPTION(5),
    STORE(6),
    INVALID_ARGUMENT(7),
    INTERNAL(8),
    INTERRUPTED(9),
    RETRY_EXHAUSTED(10),
    FENCED(11),
    MIGRATION(12),
    SNAPSHOT_EXPIRED(13),
    UNSUPPORTED(14),
    OPEN_RACED(15),
    COMMIT_OUTCOME_UNKNOWN(16),
    /** A file path outside the allowed locations (FileOutsideAllowedLocationsException). */
    LOCATION_NOT_ALLOWED(17);

    private final int abiCode;

    ErrorCode(int abiCode)
    {
        this.abiCode = abiCode;
    }

    /** The number this code has on the C ABI of the DuckDB extension surface. */
    public int abiCode()
    {
        return abiCode;
    }
}
