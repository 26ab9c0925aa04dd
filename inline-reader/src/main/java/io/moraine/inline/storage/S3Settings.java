package io.moraine.inline.storage;

import io.moraine.core.error.InvalidArgumentException;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * How to reach S3 for the lake's data files, read from the environment variables the catalog store's S3 client
 * (SlateDB's) reads, so one set of settings serves both: {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY},
 * {@code AWS_SESSION_TOKEN}, {@code AWS_REGION} (or {@code AWS_DEFAULT_REGION}; default us-east-1),
 * {@code AWS_ENDPOINT} (or {@code AWS_ENDPOINT_URL}) with {@code AWS_ALLOW_HTTP} for plain-HTTP endpoints and
 * {@code AWS_VIRTUAL_HOSTED_STYLE_REQUEST}. Without keys in the environment the SDK's default credential chain
 * (profiles, instance roles) applies.
 */
public record S3Settings(Region region, Optional<URI> endpoint, boolean pathStyle, Optional<AwsCredentials> credentials)
{
    public static S3Settings fromEnvironment(Map<String, String> environment)
    {
        Region region = Region.of(first(environment, "AWS_REGION", "AWS_DEFAULT_REGION").orElse("us-east-1"));
        Optional<URI> endpoint = first(environment, "AWS_ENDPOINT", "AWS_ENDPOINT_URL").map(text -> endpoint(text, environment));
        // Like the store's client: path-style requests unless virtual-hosted style is asked for.
        boolean pathStyle = !first(environment, "AWS_VIRTUAL_HOSTED_STYLE_REQUEST").map(Boolean::parseBoolean).orElse(false);
        Optional<String> accessKey = first(environment, "AWS_ACCESS_KEY_ID");
        Optional<String> secretKey = first(environment, "AWS_SECRET_ACCESS_KEY");
        if (accessKey.isPresent() != secretKey.isPresent()) {
            throw new InvalidArgumentException("only one of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY is set; set both, or neither to use the "
                    + "default AWS credential chain");
        }
        Optional<AwsCredentials> credentials = accessKey.map(key -> first(environment, "AWS_SESSION_TOKEN")
                .<AwsCredentials>map(token -> AwsSessionCredentials.create(key, secretKey.get(), token))
                .orElseGet(() -> AwsBasicCredentials.create(key, secretKey.get())));
        return new S3Settings(region, endpoint, pathStyle, credentials);
    }

    public S3Client newClient()
    {
        AwsCredentialsProvider provider = credentials.<AwsCredentialsProvider>map(StaticCredentialsProvider::create)
                .orElseGet(() -> DefaultCredentialsProvider.builder().build());
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(ApacheHttpClient.builder())
                .region(region)
                .credentialsProvider(provider)
                .forcePathStyle(pathStyle);
        endpoint.ifPresent(uri -> builder.endpointOverride(uri)
                // S3-compatible servers often reject the SDK's default flexible checksums; send them only where required.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED));
        return builder.build();
    }

    private static URI endpoint(String text, Map<String, String> environment)
    {
        URI uri = URI.create(text.strip());
        if (uri.getScheme() == null || uri.getHost() == null) {
            throw new InvalidArgumentException("AWS_ENDPOINT '" + text + "' is not a URL; use http(s)://<host>[:<port>]");
        }
        boolean allowHttp = first(environment, "AWS_ALLOW_HTTP").map(Boolean::parseBoolean).orElse(false);
        if (uri.getScheme().equalsIgnoreCase("http") && !allowHttp) {
            throw new InvalidArgumentException("AWS_ENDPOINT '" + text + "' is plain HTTP; set AWS_ALLOW_HTTP=true to allow it "
                    + "(the catalog store's S3 client requires the same)");
        }
        return uri;
    }

    private static Optional<String> first(Map<String, String> environment, String... names)
    {
        for (String name : names) {
            String value = environment.get(name);
            if (value != null && !value.isBlank()) {
                return Optional.of(value.strip());
            }
        }
        return Optional.empty();
    }
}
