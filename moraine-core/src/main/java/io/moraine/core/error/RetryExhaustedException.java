package io.moraine.core.error;

/** A commit spent its whole internal retry budget without settling. Terminal: not a conflict to retry. */
public class RetryExhaustedException
        extends MoraineException
{
    public RetryExhaustedException(String message)
    {
        super(ErrorCode.RETRY_EXHAUSTED, message, null);
    }

    public RetryExhaustedException(String message, Throwable cause)
    {
        super(ErrorCode.RETRY_EXHAUSTED, message, cause);
    }
}
