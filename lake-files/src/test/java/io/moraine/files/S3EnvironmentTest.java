package io.moraine.files;

import io.airlift.units.DataSize;
import io.moraine.core.error.InvalidArgumentException;
import io.trino.filesystem.s3.S3FileSystemConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.trino.filesystem.s3.S3FileSystemConstants.EXTRA_CREDENTIALS_ACCESS_KEY_PROPERTY;
import static io.trino.filesystem.s3.S3FileSystemConstants.EXTRA_CREDENTIALS_SECRET_KEY_PROPERTY;
import static io.trino.filesystem.s3.S3FileSystemConstants.EXTRA_CREDENTIALS_SESSION_TOKEN_PROPERTY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class S3EnvironmentTest
{
    @Test
    void anEndpointMeansPathStyleRequestsToIt()
    {
        S3FileSystemConfig config = S3Environment.config(environment(Map.of("AWS_ENDPOINT", "http://127.0.0.1:9000", "AWS_ALLOW_HTTP", "true",
                "AWS_ACCESS_KEY_ID", "key", "AWS_SECRET_ACCESS_KEY", "secret")));
        assertThat(config.getEndpoint()).isEqualTo("http://127.0.0.1:9000");
        assertThat(config.isPathStyleAccess()).isTrue();
        assertThat(config.getRegion()).isEqualTo("us-east-1");
        assertThat(config.getAwsAccessKey()).isEqualTo("key");
        assertThat(config.getAwsSecretKey()).isEqualTo("secret");
    }

    @Test
    void regionAndVirtualHostedStyleComeFromTheEnvironment()
    {
        S3FileSystemConfig config = S3Environment.config(environment(Map.of("AWS_DEFAULT_REGION", "eu-west-3",
                "AWS_ENDPOINT_URL", "https://s3.example.test", "AWS_VIRTUAL_HOSTED_STYLE_REQUEST", "true")));
        assertThat(config.getRegion()).isEqualTo("eu-west-3");
        assertThat(config.getEndpoint()).isEqualTo("https://s3.example.test");
        assertThat(config.isPathStyleAccess()).isFalse();
        assertThat(config.getAwsAccessKey()).as("the SDK's default chain").isNull();
    }

    @Test
    void withoutAnEndpointRequestsGoToAwsVirtualHosted()
    {
        S3FileSystemConfig config = S3Environment.config(environment(Map.of("AWS_REGION", "ap-south-1")));
        assertThat(config.getEndpoint()).isNull();
        assertThat(config.isPathStyleAccess()).isFalse();
        assertThat(config.getStreamingPartSize()).as("Trino's default part size").isEqualTo(DataSize.of(32, DataSize.Unit.MEGABYTE));
    }

    @Test
    void thePartSizeComesFromTheEnvironmentAndIsAtLeastS3sMinimum()
    {
        assertThat(S3Environment.config(environment(Map.of("MORAINE_S3_PART_SIZE", "64MB"))).getStreamingPartSize())
                .isEqualTo(DataSize.of(64, DataSize.Unit.MEGABYTE));
        assertThatThrownBy(() -> S3Environment.config(environment(Map.of("MORAINE_S3_PART_SIZE", "1MB"))))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("at least 5MB");
        assertThatThrownBy(() -> S3Environment.config(environment(Map.of("MORAINE_S3_PART_SIZE", "large"))))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("is not a size");
    }

    @Test
    void aSessionTokenTravelsWithItsKeysAsIdentityCredentials()
    {
        assertThat(S3Environment.identityCredentials(environment(Map.of("AWS_ACCESS_KEY_ID", "key", "AWS_SECRET_ACCESS_KEY", "secret",
                "AWS_SESSION_TOKEN", "token")))).isEqualTo(Map.of(EXTRA_CREDENTIALS_ACCESS_KEY_PROPERTY, "key",
                EXTRA_CREDENTIALS_SECRET_KEY_PROPERTY, "secret", EXTRA_CREDENTIALS_SESSION_TOKEN_PROPERTY, "token"));
        assertThat(S3Environment.identityCredentials(environment(Map.of("AWS_ACCESS_KEY_ID", "key", "AWS_SECRET_ACCESS_KEY", "secret")))).isEmpty();
        assertThatThrownBy(() -> S3Environment.identityCredentials(environment(Map.of("AWS_SESSION_TOKEN", "token"))))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("set all three");
    }

    @Test
    void plainHttpNeedsAllowHttpAsForTheStore()
    {
        assertThatThrownBy(() -> S3Environment.config(environment(Map.of("AWS_ENDPOINT", "http://minio:9000"))))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("AWS_ALLOW_HTTP=true");
        assertThatThrownBy(() -> S3Environment.config(environment(Map.of("AWS_ENDPOINT", "minio:9000"))))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("is not a URL");
    }

    @Test
    void halfAKeyPairIsRefused()
    {
        assertThatThrownBy(() -> S3Environment.config(environment(Map.of("AWS_ACCESS_KEY_ID", "key"))))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("AWS_SECRET_ACCESS_KEY");
    }

    private static Environment environment(Map<String, String> variables)
    {
        return new Environment(variables);
    }
}
