package io.moraine.core.error;

/** The object store or SlateDB failed; the operation did not complete. */
public class StoreException
        extends MoraineException
{
    public StoreException(String message)
    {
        super(ErrorCode.STORE, message, null);
    }

    public StoreException(String message, Throwable cause)
    {
        super(ErrorCode.STORE, message, cause);
    }
}
