package io.moraine.duckdb.ext;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.store.S3Settings;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** httpfs's meanings of an s3 secret's keys, as S3 settings. */
class DuckDbS3SecretTest
{
    @Test
    void endpointUseSslAndUrlStyleFollowHttpfs()
    {
        S3Settings minio = DuckDbS3Secret.settings(Map.of("name", "lake", "key_id", "k", "secret", "secret-value", "endpoint", "minio:9000",
                "use_ssl", "false", "url_style", "path", "region", "eu-west-1"));
        assertThat(minio.endpoint()).contains("http://minio:9000");
        assertThat(minio.virtualHostedStyle()).isFalse();
        assertThat(minio.region()).contains("eu-west-1");
        assertThat(minio.source()).isEqualTo("DuckDB secret 'lake'");

        // httpfs's defaults: https, virtual-hosted style; its default endpoint means AWS S3 itself.
        S3Settings defaults = DuckDbS3Secret.settings(Map.of("name", "aws", "key_id", "k", "secret", "secret-value", "endpoint", "s3.amazonaws.com"));
        assertThat(defaults.endpoint()).isEmpty();
        assertThat(defaults.virtualHostedStyle()).isTrue();
        assertThat(DuckDbS3Secret.settings(Map.of("name", "r", "endpoint", "storage.example.com")).endpoint()).contains("https://storage.example.com");
        assertThat(DuckDbS3Secret.settings(Map.of("name", "r", "session_token", "", "key_id", "", "secret", "")).accessKeyId()).isEqualTo(Optional.empty());
    }

    @Test
    void badValuesAreRefusedNamingTheSecret()
    {
        assertThatThrownBy(() -> DuckDbS3Secret.settings(Map.of("name", "lake", "url_style", "sideways")))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("DuckDB secret 'lake'").hasMessageContaining("URL_STYLE 'sideways'");
        assertThatThrownBy(() -> DuckDbS3Secret.settings(Map.of("name", "lake", "key_id", "k")))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("a key id without a secret");
    }

    @Test
    void attachOptionsPrintNoValue()
    {
        AttachOptions options = AttachOptions.of(new String[] {"secret.name", "lake", "secret.key_id", "k", "secret.secret", "attach-options-secret-value"});
        assertThat(options.toString()).isEqualTo("AttachOptions[secret.key_id, secret.name, secret.secret]");
        assertThat(options.applyTo(StoreOptions.DEFAULTS, StoreUri.parse("s3://lake/catalog")).toString())
                .doesNotContain("attach-options-secret-value");
    }

    @Test
    void storeTimeoutsParse()
    {
        assertThat(AttachOptions.duration("500ms").toMillis()).isEqualTo(500);
        assertThat(AttachOptions.duration("2m").toSeconds()).isEqualTo(120);
        assertThat(AttachOptions.duration("45").toSeconds()).isEqualTo(45);
        assertThatThrownBy(() -> AttachOptions.duration("-1s")).isInstanceOf(InvalidArgumentException.class);
    }
}
