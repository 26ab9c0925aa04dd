package io.moraine.core.error;

/** The request is valid but asks for something moraine does not support. */
public class UnsupportedFeatureException
        extends MoraineException
{
    public UnsupportedFeatureException(String message)
    {
        super(ErrorCode.UNSUPPORTED, message, null);
    }

    public UnsupportedFeatureException(String message, Throwable cause)
    {
        super(ErrorCode.UNSUPPORTED, message, cause);
    }
}
