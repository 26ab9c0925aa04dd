package io.moraine.sidecars.rowsum;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PublishRecordTest
{
    @Test
    void aRecordRoundTripsThroughItsJson()
    {
        Map<String, Long> reasons = new LinkedHashMap<>();
        reasons.put("data file missing", 2L);
        reasons.put("I/O error \"quoted\"", 1L);
        PublishRecord record = new PublishRecord(42, Instant.parse("2026-12-02T01:00:00Z"), "tables main.t since 7",
                new PublishOutcomes(10, 3, 4, 3, 5, 123_456, false, reasons));
        assertThat(PublishRecord.fromJson(record.toJson())).isEqualTo(record);
    }

    @Test
    void aRecordOfAnotherFormatOrWithoutAFieldIsRefused()
    {
        assertThatThrownBy(() -> PublishRecord.fromJson("{\"format\": 2}")).hasMessageContaining("this build reads format 1");
        assertThatThrownBy(() -> PublishRecord.fromJson("{\"format\": 1}")).hasMessageContaining("no field");
        assertThatThrownBy(() -> PublishRecord.fromJson("{\"format\": ")).isInstanceOf(IllegalArgumentException.class);
    }
}
