package io.moraine.cli;

/** A command failed for a reason its message fully states (an engine's error): printed without a stack trace, exit 1. */
public final class CommandFailure
        extends RuntimeException
{
    public CommandFailure(String message)
    {
        super(message);
    }

    public CommandFailure(String message, Throwable cause)
    {
        super(message, cause);
    }
}
