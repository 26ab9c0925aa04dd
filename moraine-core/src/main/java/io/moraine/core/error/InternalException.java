package io.moraine.core.error;

/** A bug in moraine: an invariant did not hold. Please report it with the message. */
public class InternalException
        extends MoraineException
{
    public InternalException(String message)
    {
        super(ErrorCode.INTERNAL, message, null);
    }

    public InternalException(String message, Throwable cause)
    {
        super(ErrorCode.INTERNAL, message, cause);
    }
}
