package io.moraine.core.error;

import static java.util.Objects.requireNonNull;

/**
 * Base of every error moraine raises. Each subclass carries one {@link ErrorCode}; messages name what was wrong and
 * what to do about it.
 */
public abstract class MoraineException
        extends RuntimeException
{
    private final ErrorCode code;

    protected MoraineException(ErrorCode code, String message, Throwable cause)
    {
        super(message, cause);
        this.code = requireNonNull(code, "code is null");
    }

    public ErrorCode code()
    {
        return code;
    }
}
