package io.moraine.core.error;

/** The store's format version is not one this binary can serve. */
public class MigrationException
        extends MoraineException
{
    public MigrationException(String message)
    {
        super(ErrorCode.MIGRATION, message, null);
    }

    public MigrationException(String message, Throwable cause)
    {
        super(ErrorCode.MIGRATION, message, cause);
    }
}
