package io.moraine.inline.storage;

import io.moraine.core.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.regions.Region;

import java.net.URI;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The data files' S3 client reads the environment variables the catalog store's client reads. */
class S3SettingsTest
{
    @Test
    void anEndpointMeansPathStyleRequestsToIt()
    {
        S3Settings settings = S3Settings.fromEnvironment(Map.of("AWS_ENDPOINT", "http://127.0.0.1:9000", "AWS_ALLOW_HTTP", "true",
                "AWS_ACCESS_KEY_ID", "key", "AWS_SECRET_ACCESS_KEY", "secret", "AWS_SESSION_TOKEN", "token"));
        assertThat(settings.endpoint()).contains(URI.create("http://127.0.0.1:9000"));
        assertThat(settings.pathStyle()).isTrue();
        assertThat(settings.region()).isEqualTo(Region.US_EAST_1);
        assertThat(settings.credentials()).get().isInstanceOfSatisfying(AwsSessionCredentials.class,
                credentials -> assertThat(credentials.sessionToken()).isEqualTo("token"));
    }

    @Test
    void regionAndVirtualHostedStyleComeFromTheEnvironment()
    {
        S3Settings settings = S3Settings.fromEnvironment(Map.of("AWS_DEFAULT_REGION", "eu-west-3", "AWS_VIRTUAL_HOSTED_STYLE_REQUEST", "true"));
        assertThat(settings.region()).isEqualTo(Region.EU_WEST_3);
        assertThat(settings.pathStyle()).isFalse();
        assertThat(settings.endpoint()).isEmpty();
        assertThat(settings.credentials()).as("the SDK's default chain").isEmpty();
    }

    @Test
    void plainHttpNeedsAllowHttpAsForTheStore()
    {
        assertThatThrownBy(() -> S3Settings.fromEnvironment(Map.of("AWS_ENDPOINT", "http://minio:9000")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("AWS_ALLOW_HTTP=true");
    }

    @Test
    void halfAKeyPairIsRefused()
    {
        assertThatThrownBy(() -> S3Settings.fromEnvironment(Map.of("AWS_ACCESS_KEY_ID", "key")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("AWS_SECRET_ACCESS_KEY");
    }

    @Test
    void s3PathsNameABucketAndAKey()
    {
        assertThat(S3Location.parse("s3://bucket/lake/data/main/t/f.parquet")).isEqualTo(new S3Location("bucket", "lake/data/main/t/f.parquet"));
        assertThat(LakeFileSystem.resolve("s3://bucket/lake/main/t", "f.parquet")).isEqualTo("s3://bucket/lake/main/t/f.parquet");
        assertThat(LakeFileSystem.resolve("file:///tmp/lake/main/t/", "f.parquet")).isEqualTo("/tmp/lake/main/t/f.parquet");
        assertThatThrownBy(() -> S3Location.parse("s3://bucket")).isInstanceOf(InvalidArgumentException.class);
    }
}
