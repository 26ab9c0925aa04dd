package io.moraine.core.store;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.Secrets;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** S3 settings given explicitly: their object_store configuration, and their secret values kept out of every message. */
class S3SettingsTest
{
    private static final String SECRET = "s3-settings-test-secret-value";
    private static final String TOKEN = "s3-settings-test-session-token";

    @Test
    void pathStyleAndVirtualHostedEndpointsMapToObjectStoreKeys()
    {
        S3Settings path = new S3Settings(Optional.of("key"), Optional.of(SECRET), Optional.of(TOKEN), Optional.of("eu-west-1"),
                Optional.of("http://minio:9000"), false, "test secret");
        assertThat(path.objectStoreConfig("lake")).isEqualTo(Map.of(
                "aws_access_key_id", "key",
                "aws_secret_access_key", SECRET,
                "aws_session_token", TOKEN,
                "aws_region", "eu-west-1",
                "aws_virtual_hosted_style_request", "false",
                "aws_endpoint", "http://minio:9000",
                "aws_allow_http", "true"));

        S3Settings virtualHosted = new S3Settings(Optional.of("key"), Optional.of(SECRET), Optional.empty(), Optional.empty(),
                Optional.of("https://storage.example.com"), true, "test secret");
        assertThat(virtualHosted.objectStoreConfig("lake"))
                .containsEntry("aws_endpoint", "https://lake.storage.example.com")
                .containsEntry("aws_allow_http", "false")
                .containsEntry("aws_virtual_hosted_style_request", "true")
                .doesNotContainKeys("aws_region", "aws_session_token", "aws_skip_signature");

        S3Settings unsigned = new S3Settings(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), true, "test secret");
        assertThat(unsigned.objectStoreConfig("lake")).containsEntry("aws_skip_signature", "true").doesNotContainKeys("aws_endpoint", "aws_access_key_id");
    }

    @Test
    void secretValuesAreRedactedAndNeverPrinted()
    {
        S3Settings settings = new S3Settings(Optional.of("key"), Optional.of(SECRET), Optional.of(TOKEN), Optional.empty(), Optional.empty(), false, "test secret");
        assertThat(Secrets.redact("denied: " + SECRET + " / " + TOKEN)).isEqualTo("denied: <redacted> / <redacted>");
        assertThat(settings.toString()).doesNotContain(SECRET, TOKEN).contains("AWS S3 in region us-east-1", "test secret");
        assertThat(StoreOptions.DEFAULTS.withS3Settings(StoreUri.parse("s3://lake/catalog"), settings).toString()).doesNotContain(SECRET, TOKEN);
    }

    @Test
    void incompleteOrMisplacedSettingsAreRefused()
    {
        assertThatThrownBy(() -> new S3Settings(Optional.of("key"), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false, "test secret"))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("a key id without a secret");
        assertThatThrownBy(() -> new S3Settings(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of("minio:9000"), false, "test secret"))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("needs its scheme");
        S3Settings settings = new S3Settings(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false, "test secret");
        assertThatThrownBy(() -> StoreOptions.DEFAULTS.withS3Settings(StoreUri.parse("memory://x"), settings))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("not on S3");
    }
}
