package io.moraine.inline.storage;

import io.moraine.core.error.InvalidArgumentException;

/** An object named by an {@code s3://bucket/key} path. */
record S3Location(String bucket, String key)
{
    static final String SCHEME = "s3://";

    static boolean isS3(String path)
    {
        return path.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
    }

    static S3Location parse(String path)
    {
        String rest = path.substring(SCHEME.length());
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1) {
            throw new InvalidArgumentException("'" + path + "' does not name an S3 object; use s3://<bucket>/<key>");
        }
        return new S3Location(rest.substring(0, slash), rest.substring(slash + 1));
    }

    @Override
    public String toString()
    {
        return SCHEME + bucket + "/" + key;
    }
}
