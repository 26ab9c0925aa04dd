package io.moraine.core.error;

/** A snapshot, table, row, checkpoint or store that was asked for does not exist. */
public class NotFoundException
        extends MoraineException
{
    public NotFoundException(String message)
    {
        super(ErrorCode.NOT_FOUND, message, null);
    }

    public NotFoundException(String message, Throwable cause)
    {
        super(ErrorCode.NOT_FOUND, message, cause);
    }
}
