package io.moraine.core.error;

/** A row would displace a live row under one of DuckLake's five primary keys, or names a row that does not exist. */
public class ConstraintException
        extends MoraineException
{
    public ConstraintException(String message)
    {
        super(ErrorCode.CONSTRAINT, message, null);
    }

    public ConstraintException(String message, Throwable cause)
    {
        super(ErrorCode.CONSTRAINT, message, cause);
    }
}
