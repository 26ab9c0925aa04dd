package io.moraine.trino;

import io.moraine.core.error.ErrorCode;
import io.moraine.core.error.MoraineException;
import io.moraine.core.error.StoreUnavailableException;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;
import io.trino.spi.TrinoException;

import static io.trino.spi.ErrorType.EXTERNAL;
import static io.trino.spi.ErrorType.INTERNAL_ERROR;
import static io.trino.spi.ErrorType.USER_ERROR;

/**
 * One Trino error code per moraine error ({@link ErrorCode}), so that a client can tell a missing table from an
 * unreachable store or a damaged catalog. Codes live in the connector range Trino reserves for plugins.
 */
public enum MoraineErrorCode
        implements ErrorCodeSupplier
{
    MORAINE_NOT_FOUND(0, USER_ERROR),
    MORAINE_ALREADY_EXISTS(1, USER_ERROR),
    MORAINE_CONSTRAINT(2, USER_ERROR),
    MORAINE_CONFLICT(3, EXTERNAL),
    MORAINE_CORRUPTION(4, INTERNAL_ERROR),
    MORAINE_STORE_ERROR(5, EXTERNAL),
    MORAINE_INVALID_ARGUMENT(6, USER_ERROR),
    MORAINE_INTERNAL_ERROR(7, INTERNAL_ERROR),
    MORAINE_INTERRUPTED(8, EXTERNAL),
    MORAINE_RETRY_EXHAUSTED(9, EXTERNAL),
    MORAINE_FENCED(10, EXTERNAL),
    MORAINE_MIGRATION_REQUIRED(11, USER_ERROR),
    MORAINE_SNAPSHOT_EXPIRED(12, USER_ERROR),
    MORAINE_UNSUPPORTED(13, USER_ERROR),
    MORAINE_OPEN_RACED(14, EXTERNAL),
    MORAINE_COMMIT_OUTCOME_UNKNOWN(15, EXTERNAL),
    /** A data or delete file the catalog names is not where it says. */
    MORAINE_MISSING_DATA(16, EXTERNAL),
    /** A data file could not be read (damaged, or unreadable with the file system's settings). */
    MORAINE_CANNOT_READ_DATA(17, EXTERNAL),
    /** The store did not answer within {@code moraine.store-timeout} (a {@link StoreUnavailableException}). */
    MORAINE_STORE_UNAVAILABLE(18, EXTERNAL),
    /** A catalog file path outside {@code moraine.allowed-locations} (or escaping the data path with '..'). */
    MORAINE_LOCATION_NOT_ALLOWED(19, USER_ERROR);

    private final io.trino.spi.ErrorCode errorCode;

    MoraineErrorCode(int code, ErrorType type)
    {
        this.errorCode = new io.trino.spi.ErrorCode(code + 0x0520_0000, name(), type);
    }

    @Override
    public io.trino.spi.ErrorCode toErrorCode()
    {
        return errorCode;
    }

    public static MoraineErrorCode of(ErrorCode code)
    {
        return switch (code) {
            case NOT_FOUND -> MORAINE_NOT_FOUND;
            case ALREADY_EXISTS -> MORAINE_ALREADY_EXISTS;
            case CONSTRAINT -> MORAINE_CONSTRAINT;
            case COMMIT_CONFLICT -> MORAINE_CONFLICT;
            case CORRUPTION -> MORAINE_CORRUPTION;
            case STORE -> MORAINE_STORE_ERROR;
            case INVALID_ARGUMENT -> MORAINE_INVALID_ARGUMENT;
            case INTERNAL -> MORAINE_INTERNAL_ERROR;
            case INTERRUPTED -> MORAINE_INTERRUPTED;
            case RETRY_EXHAUSTED -> MORAINE_RETRY_EXHAUSTED;
            case FENCED -> MORAINE_FENCED;
            case MIGRATION -> MORAINE_MIGRATION_REQUIRED;
            case SNAPSHOT_EXPIRED -> MORAINE_SNAPSHOT_EXPIRED;
            case UNSUPPORTED -> MORAINE_UNSUPPORTED;
            case OPEN_RACED -> MORAINE_OPEN_RACED;
            case COMMIT_OUTCOME_UNKNOWN -> MORAINE_COMMIT_OUTCOME_UNKNOWN;
            case LOCATION_NOT_ALLOWED -> MORAINE_LOCATION_NOT_ALLOWED;
        };
    }

    /**
     * As {@link #toTrino}, but a lake file that is not there (a delete file the core read, say) is
     * {@code MORAINE_MISSING_DATA}, with the hint that a moved lake needs {@code moraine.data-path}.
     */
    public static TrinoException toTrinoReadingFiles(MoraineException e)
    {
        if (ParquetFilePages.isMissingFile(e)) {
            return new TrinoException(MORAINE_MISSING_DATA, e.getMessage() + ": the file is missing; if the lake's files were moved, set moraine.data-path to their new root", e);
        }
        return toTrino(e);
    }

    /** A moraine error as the Trino error a query fails with, message and cause kept. */
    public static TrinoException toTrino(MoraineException e)
    {
        MoraineErrorCode code = e instanceof StoreUnavailableException ? MORAINE_STORE_UNAVAILABLE : of(e.code());
        return new TrinoException(code, e.getMessage(), e);
    }
}
