package io.moraine.spark;

import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MoraineSettingsTest
{
    @Test
    void theStoreTimeoutIsOptionalAndRoundTripsThroughOptions()
    {
        MoraineSettings plain = MoraineSettings.from(new CaseInsensitiveStringMap(Map.of("store", "/tmp/lake")), "catalog lake");
        assertThat(plain.storeTimeout()).isEmpty();
        MoraineSettings bounded = MoraineSettings.from(new CaseInsensitiveStringMap(Map.of("store", "/tmp/lake", "store-timeout", "2s")), "catalog lake");
        assertThat(bounded.storeTimeout()).contains(Duration.ofSeconds(2));
        assertThat(MoraineSettings.from(new CaseInsensitiveStringMap(bounded.asOptions()), "catalog lake")).isEqualTo(bounded);
    }

    @Test
    void aStoreTimeoutThatIsNotADurationIsRefusedNamingTheSetting()
    {
        assertThatThrownBy(() -> MoraineSettings.from(new CaseInsensitiveStringMap(Map.of("store", "/tmp/lake", "store-timeout", "soon")), "catalog lake"))
                .isInstanceOf(AnalysisException.class)
                .hasMessageContaining("catalog lake setting 'store-timeout' takes a duration such as '30s'")
                .hasMessageContaining("'soon'");
    }

    @Test
    void thePollIntervalIsOptionalAndRoundTripsThroughOptions()
    {
        MoraineSettings plain = MoraineSettings.from(new CaseInsensitiveStringMap(Map.of("store", "/tmp/lake")), "catalog lake");
        assertThat(plain.storePollInterval()).isEmpty();
        MoraineSettings slow = MoraineSettings.from(new CaseInsensitiveStringMap(Map.of("store", "/tmp/lake", "store-poll-interval", "5s")), "catalog lake");
        assertThat(slow.storePollInterval()).contains(Duration.ofSeconds(5));
        assertThat(MoraineSettings.from(new CaseInsensitiveStringMap(slow.asOptions()), "catalog lake")).isEqualTo(slow);
        assertThatThrownBy(() -> MoraineSettings.from(new CaseInsensitiveStringMap(Map.of("store", "/tmp/lake", "store-poll-interval", "0ms")), "catalog lake"))
                .isInstanceOf(AnalysisException.class)
                .hasMessageContaining("catalog lake setting 'store-poll-interval' must be positive");
    }

    @Test
    void freshnessIsOnDemandAndAlwaysFreshByDefaultAndRoundTripsThroughOptions()
    {
        MoraineSettings plain = MoraineSettings.from(new CaseInsensitiveStringMap(Map.of("store", "/tmp/lake")), "catalog lake");
        assertThat(plain.freshness()).isEqualTo(io.moraine.core.store.ReaderFreshness.DEFAULT);
        MoraineSettings bounded = MoraineSettings.from(new CaseInsensitiveStringMap(Map.of("store", "/tmp/lake", "max-staleness", "5s")), "catalog lake");
        assertThat(bounded.freshness()).isEqualTo(io.moraine.core.store.ReaderFreshness.onDemand(Duration.ofSeconds(5)));
        assertThat(MoraineSettings.from(new CaseInsensitiveStringMap(bounded.asOptions()), "catalog lake")).isEqualTo(bounded);
        MoraineSettings polled = MoraineSettings.from(new CaseInsensitiveStringMap(Map.of("store", "/tmp/lake", "reader-freshness", "poll")), "catalog lake");
        assertThat(MoraineSettings.from(new CaseInsensitiveStringMap(polled.asOptions()), "catalog lake")).isEqualTo(polled);
        assertThatThrownBy(() -> MoraineSettings.from(new CaseInsensitiveStringMap(Map.of("store", "/tmp/lake", "reader-freshness", "sometimes")), "catalog lake"))
                .isInstanceOf(AnalysisException.class)
                .hasMessageContaining("catalog lake setting 'reader-freshness' must be on-demand");
        assertThatThrownBy(() -> MoraineSettings.from(new CaseInsensitiveStringMap(Map.of("store", "/tmp/lake", "max-staleness", "soon")), "catalog lake"))
                .isInstanceOf(AnalysisException.class)
                .hasMessageContaining("catalog lake setting 'max-staleness' takes 0");
    }
}
