package io.moraine.core.error;

/**
 * The object store did not answer within the store timeout (unreachable, refusing, or retrying a failure that does
 * not clear); the operation was abandoned and did not complete.
 */
public class StoreUnavailableException
        extends StoreException
{
    public StoreUnavailableException(String message)
    {
        super(message);
    }
}
