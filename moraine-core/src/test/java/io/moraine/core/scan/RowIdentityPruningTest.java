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
    void aFileTheCatalogCannotProveDenseIsJudgedByTheMembershipForABoundedDomainOnly()
    {
        // a flush output (partial_max set): never proven dense, so the catalog's snapshots are not consulted
        DataFileTask flushed = new DataFileTask(1, 5, 9, "/lake/t/h.parquet", 1000, 100, OptionalLong.empty(), OptionalLong.of(200), 3,
                OptionalLong.of(4), List.of(), new long[0], OptionalLong.empty(), List.of(), 0, 1000);
        List<ColumnDomain> asked = new java.util.ArrayList<>();
        RowIdMembership holdsOnly250 = (file, rowIds) -> {
            assertThat(file).isEqualTo(flushed);
            asked.add(rowIds);
            return rowIds.accepts(250L);
        };
        ScanFilter point = ScanFilter.of(java.util.Map.of(HiddenColumn.ROW_ID.columnId(), ColumnDomain.values(List.of(250L))));
        ScanFilter other = ScanFilter.of(java.util.Map.of(HiddenColumn.ROW_ID.columnId(), ColumnDomain.values(List.of(7L, 8L))));
        ScanFilter range = ScanFilter.of(java.util.Map.of(HiddenColumn.ROW_ID.columnId(),
                ColumnDomain.of(new ValueRange(java.util.Optional.of(240L), true, java.util.Optional.of(260L), true))));
        ScanFilter open = ScanFilter.of(java.util.Map.of(HiddenColumn.ROW_ID.columnId(), ColumnDomain.of(ValueRange.greaterThan(5L, false))));
        assertThat(RowIdentityPruning.of(null, 1, point, holdsOnly250).mayMatch(flushed)).isTrue();
        assertThat(RowIdentityPruning.of(null, 1, other, holdsOnly250).mayMatch(flushed)).isFalse();
        assertThat(RowIdentityPruning.of(null, 1, range, (file, rowIds) -> false).mayMatch(flushed)).isFalse();
        assertThat(asked).hasSize(2);
        // an open range matches nearly every file: not worth a sidecar read, the file is kept
        assertThat(RowIdentityPruning.of(null, 1, open, (file, rowIds) -> false).mayMatch(flushed)).isTrue();
        assertThat(RowIdentityPruning.of(null, 1, ScanFilter.all(), (file, rowIds) -> false).mayMatch(flushed)).isTrue();
        assertThat(RowIdentityPruning.of(null, 1, point, RowIdMembership.unknown()).mayMatch(flushed)).isTrue();
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
