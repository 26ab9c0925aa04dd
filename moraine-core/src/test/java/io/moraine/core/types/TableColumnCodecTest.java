package io.moraine.core.types;

import io.moraine.core.error.CorruptionException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableColumnCodecTest
{
    @Test
    void everyTypeNestedColumnsDefaultsAndAbsentColumnsRoundTrip()
    {
        List<TableColumn> columns = new ArrayList<>();
        long id = 1;
        for (PrimitiveKind kind : PrimitiveKind.values()) {
            columns.add(new TableColumn(id++, "c_" + kind.duckLakeName(), DuckLakeType.of(kind), kind == PrimitiveKind.INT32 ? Optional.of("42") : Optional.empty()));
        }
        columns.add(new TableColumn(id++, "price", new DuckLakeType.Decimal(38, 9), Optional.of("1.5")));
        TableColumn city = new TableColumn(id++, "city", DuckLakeType.of(PrimitiveKind.VARCHAR), Optional.empty());
        TableColumn zip = new TableColumn(id++, "zïp", DuckLakeType.of(PrimitiveKind.INT64), Optional.empty());
        TableColumn element = new TableColumn(id++, "element", new DuckLakeType.StructOf(List.of(city, zip)), Optional.empty());
        columns.add(new TableColumn(id++, "addresses", new DuckLakeType.ListOf(element), Optional.empty()));
        TableColumn key = new TableColumn(id++, "key", DuckLakeType.of(PrimitiveKind.VARCHAR), Optional.empty());
        TableColumn value = new TableColumn(id++, "value", new DuckLakeType.ListOf(new TableColumn(id++, "element", DuckLakeType.of(PrimitiveKind.FLOAT64),
                Optional.empty())), Optional.empty());
        columns.add(new TableColumn(id++, "tags", new DuckLakeType.MapOf(key, value), Optional.empty()));
        columns.add(new TableColumn(id++, "required", DuckLakeType.of(PrimitiveKind.INT64), Optional.empty(), false));
        columns.add(null);

        List<TableColumn> decoded = TableColumnCodec.decode(TableColumnCodec.encode(columns));
        assertThat(decoded).isEqualTo(columns);
        assertThat(TableColumnCodec.decode(TableColumnCodec.encode(List.of()))).isEmpty();
    }

    @Test
    void aCutShortEncodingIsRefused()
    {
        byte[] encoded = TableColumnCodec.encode(List.of(new TableColumn(1, "id", DuckLakeType.of(PrimitiveKind.INT64), Optional.empty())));
        assertThatThrownBy(() -> TableColumnCodec.decode(Arrays.copyOf(encoded, encoded.length - 3))).isInstanceOf(CorruptionException.class);
        byte[] longer = Arrays.copyOf(encoded, encoded.length + 1);
        assertThatThrownBy(() -> TableColumnCodec.decode(longer)).isInstanceOf(CorruptionException.class).hasMessageContaining("trailing");
    }
}
