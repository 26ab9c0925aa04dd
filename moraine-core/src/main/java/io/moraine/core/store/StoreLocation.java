package io.moraine.core.store;

import java.util.Map;

/**
 * Where a store's bytes are reached, in words for an error message: the directory, or the bucket and the endpoint
 * with the settings that choose them. Credentials are never part of it.
 */
final class StoreLocation
{
    private StoreLocation() {}

    static String describe(StoreUri uri)
    {
        return describe(uri, System.getenv());
    }

    static String describe(StoreUri uri, Map<String, String> environment)
    {
        return switch (uri.scheme()) {
            case FILE -> "directory /" + uri.dbPath();
            case MEMORY -> "in-memory store " + uri;
            case S3 -> {
                String bucket = uri.objectStoreUrl().substring("s3://".length());
                String endpoint = environment.get("AWS_ENDPOINT");
                String region = environment.getOrDefault("AWS_REGION", environment.getOrDefault("AWS_DEFAULT_REGION", "us-east-1"));
                yield "bucket '" + bucket + "' at endpoint " + (endpoint == null ? "AWS S3 in region " + region + " (AWS_REGION)" : endpoint + " (AWS_ENDPOINT)");
            }
        };
    }
}
