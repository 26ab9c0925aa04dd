package io.moraine.core.error;

/** Another process created the store first while this one was creating it. */
public class OpenRacedException
        extends MoraineException
{
    public OpenRacedException(String message)
    {
        super(ErrorCode.OPEN_RACED, message, null);
    }

    public OpenRacedException(String message, Throwable cause)
    {
        super(ErrorCode.OPEN_RACED, message, cause);
    }
}
