package io.moraine.core.store;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.Secrets;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The S3 client settings of one store, given explicitly (an engine's secret) instead of read from the {@code AWS_*}
 * environment. Settings that are given replace the environment entirely: nothing of it is merged in.
 *
 * @param accessKeyId empty for unsigned requests (a public bucket)
 * @param secretAccessKey empty exactly when {@code accessKeyId} is
 * @param sessionToken for temporary credentials
 * @param region empty: us-east-1
 * @param endpoint a URL with its scheme ({@code http://minio:9000}); empty: AWS S3 in {@code region}
 * @param virtualHostedStyle whether the bucket goes in the host name ({@code bucket.endpoint}) rather than the path
 * @param source where the settings came from, for messages ({@code DuckDB secret 'lake'})
 */
public record S3Settings(Optional<String> accessKeyId, Optional<String> secretAccessKey, Optional<String> sessionToken, Optional<String> region,
        Optional<String> endpoint, boolean virtualHostedStyle, String source)
{
    public S3Settings
    {
        requireNonNull(accessKeyId, "accessKeyId is null");
        requireNonNull(secretAccessKey, "secretAccessKey is null");
        requireNonNull(sessionToken, "sessionToken is null");
        requireNonNull(region, "region is null");
        requireNonNull(endpoint, "endpoint is null");
        requireNonNull(source, "source is null");
        if (accessKeyId.isPresent() != secretAccessKey.isPresent()) {
            throw new InvalidArgumentException("the S3 settings of " + source + " give " + (accessKeyId.isPresent() ? "a key id without a secret" : "a secret without a key id")
                    + "; give both (or neither, for unsigned requests to a public bucket)");
        }
        endpoint.ifPresent(url -> {
            if (!url.startsWith("http://") && !url.startsWith("https://")) {
                throw new InvalidArgumentException("the S3 endpoint of " + source + " is '" + url + "'; it needs its scheme, http:// or https://");
            }
        });
        // Every message that leaves the store layer is redacted of these from now on.
        secretAccessKey.ifPresent(Secrets::register);
        sessionToken.ifPresent(Secrets::register);
    }

    /** The object_store (AmazonS3Builder) configuration of a store in {@code bucket}. */
    Map<String, String> objectStoreConfig(String bucket)
    {
        Map<String, String> config = new LinkedHashMap<>();
        accessKeyId.ifPresent(key -> config.put("aws_access_key_id", key));
        secretAccessKey.ifPresent(secret -> config.put("aws_secret_access_key", secret));
        sessionToken.ifPresent(token -> config.put("aws_session_token", token));
        if (accessKeyId.isEmpty()) {
            config.put("aws_skip_signature", "true");
        }
        region.ifPresent(name -> config.put("aws_region", name));
        config.put("aws_virtual_hosted_style_request", Boolean.toString(virtualHostedStyle));
        endpoint.ifPresent(url -> {
            // object_store takes a virtual-hosted endpoint with the bucket already in its host name.
            config.put("aws_endpoint", virtualHostedStyle ? url.replaceFirst("://", "://" + bucket + ".") : url);
            config.put("aws_allow_http", Boolean.toString(url.startsWith("http://")));
        });
        return config;
    }

    /** Where the store is reached, in words: the endpoint and where it was set. */
    String describeEndpoint()
    {
        return endpoint.map(url -> url + (virtualHostedStyle ? " (virtual-hosted style)" : " (path style)"))
                .orElse("AWS S3 in region " + region.orElse("us-east-1")) + ", from the " + source;
    }

    @Override
    public String toString()
    {
        return "S3Settings[" + describeEndpoint() + ", key id " + accessKeyId.orElse("(none)") + ", secret <redacted>]";
    }
}
