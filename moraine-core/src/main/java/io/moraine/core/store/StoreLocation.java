package io.moraine.core.store;

import java.util.Map;
import java.util.Optional;

/**
 * Where a store's bytes are reached, in words for an error message: the directory, or the bucket and the endpoint
 * with the settings that choose them. Credentials are never part of it.
 */
final class StoreLocation
{
    private StoreLocation() {}

    static String describe(StoreUri uri)
    {
        return describe(uri, System.getenv(), ObjectStores.settingsInUse(uri));
    }

    static String describe(StoreUri uri, Map<String, String> environment)
    {
        return describe(uri, environment, Optional.empty());
    }

    private static String describe(StoreUri uri, Map<String, String> environment, Optional<S3Settings> settings)
    {
        return switch (uri.scheme()) {
            case FILE -> "directory /" + uri.dbPath();
            case MEMORY -> "in-memory store " + uri;
            case S3 -> {
                String bucket = uri.objectStoreUrl().substring("s3://".length());
                if (settings.isPresent()) {
                    yield "bucket '" + bucket + "' at endpoint " + settings.get().describeEndpoint();
                }
                String endpoint = environment.get("AWS_ENDPOINT");
                String region = environment.getOrDefault("AWS_REGION", environment.getOrDefault("AWS_DEFAULT_REGION", "us-east-1"));
                yield "bucket '" + bucket + "' at endpoint " + (endpoint == null ? "AWS S3 in region " + region + " (AWS_REGION)" : endpoint + " (AWS_ENDPOINT)");
            }
        };
    }

    /** What to check when the store at {@code uri} fails to answer, or answers that it is unavailable. */
    static String whatToCheck(StoreUri uri)
    {
        return switch (uri.scheme()) {
            case S3 -> "Check that the endpoint is reachable, the bucket exists and " + credentials(uri) + " are accepted";
            case FILE -> "Check that the directory is readable and writable and that its file system answers (a network mount may be hung)";
            case MEMORY -> "An in-memory store answers at once unless the process is starved of CPU or memory";
        };
    }

    /** Which credentials a failing store was reached with, for the advice to check them. */
    static String credentials(StoreUri uri)
    {
        return ObjectStores.settingsInUse(uri)
                .map(settings -> "the credentials of the " + settings.source())
                .orElse("the credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)");
    }
}
