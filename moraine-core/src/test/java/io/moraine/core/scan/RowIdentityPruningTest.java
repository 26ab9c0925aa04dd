package io.moraine.core.scan;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class RowIdentityPruningTest
{
    /** A file of 100 rows numbered from row id 200. */
    private static final DataFileTask FILE = new DataFileTask(1, 5, 7, "/lake/t/f.parquet", 1000, 100, OptionalLong.empty(), OptionalLong.of(200), 3,
            OptionalLong.empty(), List.of(), new long[0], OptionalLong.empty(), List.of(), 0, 1000);

    @Test
    void aPositionalFileHoldsItsRowIdRangeOnly()
    {
        assertThat(RowIdentityPruning.rowIdsMayMatch(FILE, ColumnDomain.values(List.of(200L)), false)).isTrue();
        assertThat(RowIdentityPruning.rowIdsMayMatch(FILE, ColumnDomain.values(List.of(299L)), false)).isTrue();
        assertThat(RowIdentityPruning.rowIdsMayMatch(FILE, ColumnDomain.values(List.of(300L)), false)).isFalse();
        assertThat(RowIdentityPruning.rowIdsMayMatch(FILE, ColumnDomain.values(List.of(199L, 400L)), false)).isFalse();
        assertThat(RowIdentityPruning.rowIdsMayMatch(FILE, ColumnDomain.of(ValueRange.greaterThan(299L, false)), false)).isFalse();
        assertThat(RowIdentityPruning.rowIdsMayMatch(FILE, ColumnDomain.of(ValueRange.greaterThan(299L, true)), false)).isTrue();
        assertThat(RowIdentityPruning.rowIdsMayMatch(FILE, ColumnDomain.of(ValueRange.lessThan(200L, false)), false)).isFalse();
    }

    @Test
    void aFileEmbeddingRowIdsOrWithoutRowIdStartIsNotJudgedByItsRange()
    {
        assertThat(RowIdentityPruning.rowIdsMayMatch(FILE, ColumnDomain.values(List.of(5L)), true)).isTrue();
        DataFileTask compacted = new DataFileTask(1, 5, 8, "/lake/t/g.parquet", 1000, 100, OptionalLong.empty(), OptionalLong.empty(), 3,
                OptionalLong.empty(), List.of(), new long[0], OptionalLong.empty(), List.of(), 0, 1000);
        assertThat(RowIdentityPruning.rowIdsMayMatch(compacted, ColumnDomain.values(List.of(5L)), false)).isTrue();
    }

    @Test
    void hiddenColumnsAreFoundByIdAndName()
    {
        assertThat(HiddenColumn.ofColumnId(DataFileTask.ROW_ID_FIELD_ID)).contains(HiddenColumn.ROW_ID);
        assertThat(HiddenColumn.ofName("$path")).contains(HiddenColumn.PATH);
        assertThat(HiddenColumn.PATH.fileValue(FILE)).contains("/lake/t/f.parquet");
        assertThat(HiddenColumn.ROW_ID.fileValue(FILE)).isEmpty();
        assertThat(HiddenColumn.ofColumnId(1)).isEmpty();
    }
}
