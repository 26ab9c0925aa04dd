package io.moraine.core.error;

/** No store exists at the location an open named; nothing was written there. */
public class StoreNotFoundException
        extends NotFoundException
{
    public StoreNotFoundException(String message)
    {
        super(message);
    }
}
