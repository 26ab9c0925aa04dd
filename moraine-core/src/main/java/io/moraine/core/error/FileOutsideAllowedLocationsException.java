package io.moraine.core.error;

/**
 * A data or delete file path from the catalog lies outside the locations the engine may read, register or clean up
 * (docs/status.md, "Where files may live"). The message names the path, the allowed locations and the setting that
 * widens them.
 */
public class FileOutsideAllowedLocationsException
        extends MoraineException
{
    private final String path;

    public FileOutsideAllowedLocationsException(String path, String message)
    {
        super(ErrorCode.LOCATION_NOT_ALLOWED, message, null);
        this.path = path;
    }

    /** The path as the catalog resolves it. */
    public String path()
    {
        return path;
    }
}
