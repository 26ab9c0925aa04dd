package io.moraine.core.error;

/** Bytes in the store do not decode as what their key says they are. */
public class CorruptionException
        extends MoraineException
{
    public CorruptionException(String message)
    {
        super(ErrorCode.CORRUPTION, message, null);
    }

    public CorruptionException(String message, Throwable cause)
    {
        super(ErrorCode.CORRUPTION, message, cause);
    }
}
