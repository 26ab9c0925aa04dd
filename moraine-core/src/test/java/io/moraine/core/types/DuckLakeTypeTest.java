package io.moraine.core.types;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class DuckLakeTypeTest
{
    @Test
    void isAsksForOneScalarKindWhateverTheNamesSpelling()
    {
        assertThat(DuckLakeType.parseScalar("u", "UUID").is(PrimitiveKind.UUID)).isTrue();
        assertThat(DuckLakeType.parseScalar("t", "timestamp_us").is(PrimitiveKind.TIMESTAMP)).isTrue();
        assertThat(DuckLakeType.parseScalar("w", "interval").is(PrimitiveKind.UUID)).isFalse();
        assertThat(DuckLakeType.parseScalar("d", "decimal(9,2)").is(PrimitiveKind.INT64)).isFalse();
        TableColumn element = new TableColumn(2, "element", DuckLakeType.of(PrimitiveKind.UUID), Optional.empty());
        assertThat(DuckLakeType.parse("l", "list", List.of(element)).is(PrimitiveKind.UUID)).isFalse();
    }
}
