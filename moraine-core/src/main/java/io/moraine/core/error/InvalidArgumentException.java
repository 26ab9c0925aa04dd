package io.moraine.core.error;

/** The caller passed something malformed: a store URI, a table kind, a cell of the wrong type. */
public class InvalidArgumentException
        extends MoraineException
{
    public InvalidArgumentException(String message)
    {
        super(ErrorCode.INVALID_ARGUMENT, message, null);
    }

    public InvalidArgumentException(String message, Throwable cause)
    {
        super(ErrorCode.INVALID_ARGUMENT, message, cause);
    }
}
