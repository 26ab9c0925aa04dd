package io.moraine.core.error;

/**
 * A commit needed the store's writer back from another process and could not take it within its bounded attempts
 * (the other process kept taking it, or SlateDB's writer open did not settle). Nothing of the commit landed.
 */
public class WriterHandoffException
        extends RetryExhaustedException
{
    public WriterHandoffException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
