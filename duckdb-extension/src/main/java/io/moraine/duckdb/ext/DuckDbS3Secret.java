package io.moraine.duckdb.ext;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.store.S3Settings;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A DuckDB secret of type s3 (the key/value map the shim read from DuckDB's secret manager) as a store's S3 settings,
 * with httpfs's meanings: ENDPOINT is host[:port] without a scheme and USE_SSL (default true) picks https or http;
 * URL_STYLE is 'vhost' (the default) or 'path'; no ENDPOINT, or httpfs's default s3.amazonaws.com, means AWS S3 in
 * REGION (default us-east-1). Keys moraine has no use for (KMS_KEY_ID, REQUESTER_PAYS, ...) are ignored.
 */
final class DuckDbS3Secret
{
    private static final String AWS_ENDPOINT = "s3.amazonaws.com";

    private DuckDbS3Secret() {}

    /** {@code secret}: the secret's keys, lower case, and {@code name}, its name. */
    static S3Settings settings(Map<String, String> secret)
    {
        String source = "DuckDB secret '" + secret.getOrDefault("name", "") + "'";
        Optional<String> endpoint = value(secret, "endpoint")
                .filter(host -> !host.equalsIgnoreCase(AWS_ENDPOINT))
                .map(host -> host.contains("://") ? host : (useSsl(secret, source) ? "https://" : "http://") + host);
        return new S3Settings(value(secret, "key_id"), value(secret, "secret"), value(secret, "session_token"), value(secret, "region"),
                endpoint, virtualHostedStyle(secret, source), source);
    }

    private static boolean useSsl(Map<String, String> secret, String source)
    {
        return switch (value(secret, "use_ssl").orElse("true").toLowerCase(Locale.ROOT)) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            case String other -> throw new InvalidArgumentException("the " + source + " has USE_SSL '" + other + "'; give true or false");
        };
    }

    private static boolean virtualHostedStyle(Map<String, String> secret, String source)
    {
        return switch (value(secret, "url_style").orElse("vhost").toLowerCase(Locale.ROOT)) {
            case "vhost" -> true;
            case "path" -> false;
            case String other -> throw new InvalidArgumentException("the " + source + " has URL_STYLE '" + other + "'; give 'path' or 'vhost'");
        };
    }

    private static Optional<String> value(Map<String, String> secret, String key)
    {
        return Optional.ofNullable(secret.get(key)).map(String::strip).filter(text -> !text.isEmpty());
    }
}
