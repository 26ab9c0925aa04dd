package io.moraine.core.store;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoreTimeoutsTest
{
    @Test
    void parsesEveryUnitAndWholeSeconds()
    {
        assertThat(StoreTimeouts.parse("--store-timeout", "500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(StoreTimeouts.parse("--store-timeout", "30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(StoreTimeouts.parse("--store-timeout", " 2m ")).isEqualTo(Duration.ofMinutes(2));
        assertThat(StoreTimeouts.parse("--store-timeout", "1h")).isEqualTo(Duration.ofHours(1));
        assertThat(StoreTimeouts.parse("--store-timeout", "45")).isEqualTo(Duration.ofSeconds(45));
    }

    @Test
    void refusesWhatIsNotAPositiveDurationNamingTheSetting()
    {
        assertThatThrownBy(() -> StoreTimeouts.parse("STORE_TIMEOUT", "soon")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("STORE_TIMEOUT takes a duration such as '30s', '500ms' or '2m', not 'soon'");
        assertThatThrownBy(() -> StoreTimeouts.parse("--store-timeout", "0s")).hasMessage("--store-timeout must be positive, not '0s'");
        assertThatThrownBy(() -> StoreTimeouts.parse("--store-timeout", "-1s")).hasMessageContaining("not '-1s'");
    }
}
