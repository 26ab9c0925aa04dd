package io.moraine.files;

import io.airlift.units.DataSize;
import io.moraine.core.error.InvalidArgumentException;
import io.opentelemetry.api.OpenTelemetry;
import io.trino.filesystem.s3.S3FileSystemConfig;
import io.trino.filesystem.s3.S3FileSystemFactory;
import io.trino.filesystem.s3.S3FileSystemStats;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

import static io.trino.filesystem.s3.S3FileSystemConstants.EXTRA_CREDENTIALS_ACCESS_KEY_PROPERTY;
import static io.trino.filesystem.s3.S3FileSystemConstants.EXTRA_CREDENTIALS_SECRET_KEY_PROPERTY;
import static io.trino.filesystem.s3.S3FileSystemConstants.EXTRA_CREDENTIALS_SESSION_TOKEN_PROPERTY;

/**
 * Trino's native S3 file system configured from the environment variables the catalog store's S3 client (SlateDB's)
 * reads, so one set of settings serves both: {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY},
 * {@code AWS_SESSION_TOKEN}, {@code AWS_REGION} (or {@code AWS_DEFAULT_REGION}; default us-east-1), {@code AWS_ENDPOINT}
 * (or {@code AWS_ENDPOINT_URL}; path-style requests unless {@code AWS_VIRTUAL_HOSTED_STYLE_REQUEST=true}) with
 * {@code AWS_ALLOW_HTTP=true} for a plain-HTTP endpoint. Without keys the AWS SDK's default credential chain applies.
 * {@code MORAINE_S3_PART_SIZE} (at least 5MB; Trino's default is 32MB) is the part size of uploads: a file larger than one
 * part is uploaded in parts, a smaller one in a single request.
 */
final class S3Environment
{
    static final String PART_SIZE = "MORAINE_S3_PART_SIZE";
    private static final DataSize MIN_PART_SIZE = DataSize.of(5, DataSize.Unit.MEGABYTE);

    private S3Environment() {}

    static SchemeFileSystem fileSystem(Environment environment)
    {
        S3FileSystemFactory factory = new S3FileSystemFactory(OpenTelemetry.noop(), config(environment), new S3FileSystemStats());
        return new SchemeFileSystem(factory, factory::destroy);
    }

    static S3FileSystemConfig config(Environment environment)
    {
        S3FileSystemConfig config = new S3FileSystemConfig()
                .setRegion(environment.first("AWS_REGION", "AWS_DEFAULT_REGION").orElse("us-east-1"));
        environment.first(PART_SIZE).map(S3Environment::partSize).ifPresent(config::setStreamingPartSize);
        Optional<String> endpoint = environment.first("AWS_ENDPOINT", "AWS_ENDPOINT_URL");
        endpoint.ifPresent(text -> config.setEndpoint(endpoint(text, environment))
                .setPathStyleAccess(!environment.isTrue("AWS_VIRTUAL_HOSTED_STYLE_REQUEST")));
        Optional<String> accessKey = environment.first("AWS_ACCESS_KEY_ID");
        Optional<String> secretKey = environment.first("AWS_SECRET_ACCESS_KEY");
        if (accessKey.isPresent() != secretKey.isPresent()) {
            throw new InvalidArgumentException("only one of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY is set; set both, or neither to use the "
                    + "default AWS credential chain");
        }
        if (accessKey.isPresent()) {
            config.setAwsAccessKey(accessKey.get()).setAwsSecretKey(secretKey.get());
        }
        return config;
    }

    /**
     * Session credentials, which Trino's S3 file system takes from the caller's identity rather than its
     * configuration; empty without {@code AWS_SESSION_TOKEN}.
     */
    static Map<String, String> identityCredentials(Environment environment)
    {
        Optional<String> token = environment.first("AWS_SESSION_TOKEN");
        if (token.isEmpty()) {
            return Map.of();
        }
        Optional<String> accessKey = environment.first("AWS_ACCESS_KEY_ID");
        Optional<String> secretKey = environment.first("AWS_SECRET_ACCESS_KEY");
        if (accessKey.isEmpty() || secretKey.isEmpty()) {
            throw new InvalidArgumentException("AWS_SESSION_TOKEN is set without AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; a session token "
                    + "is used together with the temporary keys it was issued with: set all three");
        }
        return Map.of(EXTRA_CREDENTIALS_ACCESS_KEY_PROPERTY, accessKey.get(),
                EXTRA_CREDENTIALS_SECRET_KEY_PROPERTY, secretKey.get(),
                EXTRA_CREDENTIALS_SESSION_TOKEN_PROPERTY, token.get());
    }

    private static DataSize partSize(String text)
    {
        DataSize size;
        try {
            size = DataSize.valueOf(text);
        }
        catch (IllegalArgumentException e) {
            throw new InvalidArgumentException(PART_SIZE + " '" + text + "' is not a size; use a number and a unit, e.g. 64MB", e);
        }
        if (size.compareTo(MIN_PART_SIZE) < 0) {
            throw new InvalidArgumentException(PART_SIZE + " '" + text + "' is below S3's minimum part size; use at least 5MB");
        }
        return size;
    }

    private static String endpoint(String text, Environment environment)
    {
        URI uri;
        try {
            uri = URI.create(text);
        }
        catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null || uri.getScheme() == null || uri.getHost() == null) {
            throw new InvalidArgumentException("AWS_ENDPOINT '" + text + "' is not a URL; use http(s)://<host>[:<port>]");
        }
        if (uri.getScheme().equalsIgnoreCase("http") && !environment.isTrue("AWS_ALLOW_HTTP")) {
            throw new InvalidArgumentException("AWS_ENDPOINT '" + text + "' is plain HTTP; set AWS_ALLOW_HTTP=true to allow it "
                    + "(the catalog store's S3 client requires the same)");
        }
        return text;
    }
}
