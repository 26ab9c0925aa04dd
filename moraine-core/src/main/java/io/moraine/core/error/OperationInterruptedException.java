package io.moraine.core.error;

/** The operation was cancelled before it changed anything. */
public class OperationInterruptedException
        extends MoraineException
{
    public OperationInterruptedException(String message)
    {
        super(ErrorCode.INTERRUPTED, message, null);
    }

    public OperationInterruptedException(String message, Throwable cause)
    {
        super(ErrorCode.INTERRUPTED, message, cause);
    }
}
