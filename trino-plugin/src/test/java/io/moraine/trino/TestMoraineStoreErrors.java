package io.moraine.trino;

import io.airlift.units.Duration;
import io.moraine.core.error.StoreNotFoundException;
import io.moraine.core.error.StoreUnavailableException;
import io.moraine.core.store.StoreOptions;
import io.trino.spi.ErrorType;
import io.trino.spi.TrinoException;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** How store failures reach a Trino client, and the store timeout's setting. */
class TestMoraineStoreErrors
{
    @Test
    void anUnavailableStoreHasItsOwnExternalErrorCode()
    {
        TrinoException unavailable = MoraineErrorCode.toTrino(new StoreUnavailableException("store s3://b/c did not answer within 30.0 s"));
        assertThat(unavailable.getErrorCode()).isEqualTo(MoraineErrorCode.MORAINE_STORE_UNAVAILABLE.toErrorCode());
        assertThat(unavailable.getErrorCode().getType()).isEqualTo(ErrorType.EXTERNAL);
        assertThat(unavailable.getMessage()).isEqualTo("store s3://b/c did not answer within 30.0 s");

        TrinoException missing = MoraineErrorCode.toTrino(new StoreNotFoundException("no moraine store exists at s3://b/c"));
        assertThat(missing.getErrorCode()).isEqualTo(MoraineErrorCode.MORAINE_NOT_FOUND.toErrorCode());

        assertThat(Arrays.stream(MoraineErrorCode.values()).map(code -> code.toErrorCode().getCode()).distinct().count())
                .isEqualTo(MoraineErrorCode.values().length);
    }

    @Test
    void theStoreTimeoutDefaultsToTheStoresDefault()
    {
        MoraineConfig config = new MoraineConfig();
        assertThat(config.getStoreTimeout().toMillis()).isEqualTo(StoreOptions.DEFAULT_TIMEOUT.toMillis());
        assertThat(config.setStoreTimeout(new Duration(5, TimeUnit.SECONDS)).getStoreTimeout().toMillis()).isEqualTo(5000);
    }

    @Test
    void thePollIntervalDefaultsToTheStoresAndRefusesAnIntervalBelowTenMilliseconds()
    {
        assertThat(new MoraineConfig().getStorePollInterval().toMillis()).isEqualTo(StoreOptions.DEFAULTS.manifestPollInterval().toMillis());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MoraineConnectorFactory().create("lake",
                        java.util.Map.of("moraine.store-uri", "/nonexistent/store", "moraine.store-poll-interval", "5ms"),
                        new io.trino.testing.TestingConnectorContext()))
                .hasMessageContaining("storePollInterval")
                .hasMessageContaining("10ms");
    }
}
