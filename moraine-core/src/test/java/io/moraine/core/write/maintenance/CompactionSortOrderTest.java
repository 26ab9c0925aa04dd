package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.SortSpec;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.files.DataFileSchema;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The compaction's sort order compares as DuckDB's ORDER BY does (the expectations are what DuckDB 1.5.5 returns). */
class CompactionSortOrderTest
{
    private static final List<TableColumn> COLUMNS = List.of(
            new TableColumn(1, "My Col", new DuckLakeType.Primitive(PrimitiveKind.FLOAT64), Optional.empty()),
            new TableColumn(2, "b", new DuckLakeType.Primitive(PrimitiveKind.VARCHAR), Optional.empty()),
            new TableColumn(3, "u", new DuckLakeType.Primitive(PrimitiveKind.UINT64), Optional.empty()),
            new TableColumn(4, "i", new DuckLakeType.Primitive(PrimitiveKind.INTERVAL), Optional.empty()));
    private static final MessageType SCHEMA = DataFileSchema.of(COLUMNS, false);

    @Test
    void floatsOrderNanLastAndNegativeZeroEqualToZero()
    {
        // DuckDB: SET SORTED BY ("My Col" DESC, B) gives nan, nan, inf, 1.5, 0.0 (ties by b), -inf, NULL
        List<Group> rows = new ArrayList<>(List.of(row(Double.NaN, "é", 0), row(-0.0, "z", 0), row(0.0, "Z", 0), row(Double.NEGATIVE_INFINITY, "a", 0),
                row(Double.POSITIVE_INFINITY, null, 0), row(-0.0, "ab", 0), row(null, "a", 0), row(1.5, "A", 0), row(Double.NaN, "", 0)));
        sort(rows, key("\"My Col\"", true, false), key("B", false, false));
        assertThat(rows.stream().map(CompactionSortOrderTest::text).toList()).containsExactly(
                "NaN|", "NaN|é", "Infinity|null", "1.5|A", "0.0|Z", "-0.0|ab", "-0.0|z", "-Infinity|a", "null|a");
    }

    @Test
    void stringsByBytesUnsignedAsUnsignedAndNullsWhereTheKeySaysAndTiesInSourceOrder()
    {
        List<Group> rows = new ArrayList<>(List.of(row(1.0, "b", -1), row(2.0, null, 1), row(3.0, "B", 1), row(4.0, "b", 0), row(5.0, "é", 2)));
        sort(rows, key("b", true, true), key("u", false, false));
        // DESC NULLS FIRST on b: NULL, é, b, b, B; the two b rows by u unsigned: 0 before 2^64-1
        assertThat(rows.stream().map(CompactionSortOrderTest::text).toList()).containsExactly("2.0|null", "5.0|é", "4.0|b", "1.0|b", "3.0|B");
        rows = new ArrayList<>(List.of(row(1.0, "x", 0), row(2.0, "x", 0), row(3.0, "x", 0)));
        sort(rows, key("b", false, false));
        assertThat(rows.stream().map(CompactionSortOrderTest::text).toList()).containsExactly("1.0|x", "2.0|x", "3.0|x");
    }

    @Test
    void anExpressionTheCoreDoesNotEvaluateIsRefusedNamingIt()
    {
        assertThat(CompactionSortOrder.columnName("\"My \"\"x\"\"\"")).contains("My \"x\"");
        assertThat(CompactionSortOrder.columnName("lower(b)")).isEmpty();
        assertThatThrownBy(() -> order(key("b COLLATE nocase", false, false))).isInstanceOf(UnsupportedFeatureException.class)
                .hasMessageContaining("'b COLLATE nocase'").hasMessageContaining("ducklake_merge_adjacent_files through DuckDB");
        assertThatThrownBy(() -> order(key("i", false, false))).isInstanceOf(UnsupportedFeatureException.class).hasMessageContaining("interval");
        assertThatThrownBy(() -> order(key("gone", false, false))).isInstanceOf(InvalidArgumentException.class).hasMessageContaining("'gone'");
        // keys of another dialect are skipped, as DuckLake skips them
        assertThat(CompactionSortOrder.of(Optional.of(new SortSpec(1, List.of(new SortSpec.Key(0, "lower(b)", "spark", false, false)))), COLUMNS, "main.t",
                "ducklake_merge_adjacent_files")).isEmpty();
    }

    private static void sort(List<Group> rows, SortSpec.Key... keys)
    {
        CompactionSortOrder order = order(keys);
        int[] fields = order.fieldsOf(SCHEMA);
        Comparator<Comparable<?>[]> comparator = order.comparator();
        rows.sort((left, right) -> comparator.compare(order.keyOf(left, SCHEMA, fields), order.keyOf(right, SCHEMA, fields)));
    }

    private static CompactionSortOrder order(SortSpec.Key... keys)
    {
        return CompactionSortOrder.of(Optional.of(new SortSpec(1, List.of(keys))), COLUMNS, "main.t", "ducklake_merge_adjacent_files").orElseThrow();
    }

    private static SortSpec.Key key(String expression, boolean descending, boolean nullsFirst)
    {
        return new SortSpec.Key(0, expression, "duckdb", descending, nullsFirst);
    }

    private static Group row(Double number, String text, long unsigned)
    {
        Group group = new SimpleGroup(SCHEMA);
        if (number != null) {
            group.add(0, number);
        }
        if (text != null) {
            group.add(1, Binary.fromString(text));
        }
        group.add(2, unsigned);
        return group;
    }

    private static String text(Group row)
    {
        String number = row.getFieldRepetitionCount(0) == 0 ? "null" : String.valueOf(row.getDouble(0, 0));
        String text = row.getFieldRepetitionCount(1) == 0 ? "null" : new String(row.getBinary(1, 0).getBytes(), StandardCharsets.UTF_8);
        return number + "|" + text;
    }
}
