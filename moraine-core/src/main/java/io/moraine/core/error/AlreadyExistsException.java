package io.moraine.core.error;

/** Something that must be new exists already (a store that must be empty, a checkpoint id). */
public class AlreadyExistsException
        extends MoraineException
{
    public AlreadyExistsException(String message)
    {
        super(ErrorCode.ALREADY_EXISTS, message, null);
    }

    public AlreadyExistsException(String message, Throwable cause)
    {
        super(ErrorCode.ALREADY_EXISTS, message, cause);
    }
}
