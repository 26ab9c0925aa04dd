package io.moraine.core.row;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link InsertionOrder}: rows in the order DuckLake inserted them, from the rows as the store serves them (current, then history, each by key). */
class InsertionOrderTest
{
    @Test
    void aNewVersionOfAColumnComesAfterTheColumnsOfLaterTablesAndAnEndedRowStaysWhereItWas()
    {
        Row tableOneFirst = column(1, 1, 1, null);
        Row tableOneEnded = column(1, 2, 1, 5L);
        Row tableOneNewVersion = column(1, 2, 5, null);
        Row tableTwo = column(2, 1, 3, null);
        // as served: current rows by (table_id, column_id, begin_snapshot), then history rows
        List<Row> served = List.of(tableOneFirst, tableOneNewVersion, tableTwo, tableOneEnded);

        assertThat(InsertionOrder.sort(TableKind.COLUMN, served)).containsExactly(tableOneFirst, tableOneEnded, tableTwo, tableOneNewVersion);
    }

    @Test
    void dataFilesComeByIdAcrossTablesWhateverSnapshotACompactedFileTookOver()
    {
        Row first = dataFile(0, 1, 2);
        Row secondTable = dataFile(4, 2, 4);
        Row compacted = dataFile(10, 1, 2); // a merge of earlier files keeps the first one's begin_snapshot
        List<Row> served = List.of(first, compacted, secondTable);

        assertThat(InsertionOrder.sort(TableKind.DATA_FILE, served)).containsExactly(first, secondTable, compacted);
    }

    @Test
    void rowsAlreadyInOrderAndKindsWithoutAnOrderAreReturnedAsGiven()
    {
        List<Row> snapshots = List.of(Row.ofMap(TableKind.SNAPSHOT, Map.of("snapshot_id", 0L)), Row.ofMap(TableKind.SNAPSHOT, Map.of("snapshot_id", 1L)));
        assertThat(InsertionOrder.sort(TableKind.SNAPSHOT, snapshots)).isSameAs(snapshots);

        List<Row> options = List.of(Row.ofMap(TableKind.METADATA, Map.of("key", "z")), Row.ofMap(TableKind.METADATA, Map.of("key", "a")));
        assertThat(InsertionOrder.sort(TableKind.METADATA, options)).isSameAs(options);
        assertThat(InsertionOrder.columns(TableKind.METADATA)).isEmpty();
    }

    private static Row column(long tableId, long columnId, long beginSnapshot, Long endSnapshot)
    {
        java.util.HashMap<String, Object> cells = new java.util.HashMap<>(Map.of("table_id", tableId, "column_id", columnId, "begin_snapshot", beginSnapshot));
        cells.put("end_snapshot", endSnapshot);
        return Row.ofMap(TableKind.COLUMN, cells);
    }

    private static Row dataFile(long dataFileId, long tableId, long beginSnapshot)
    {
        return Row.ofMap(TableKind.DATA_FILE, Map.of("data_file_id", dataFileId, "table_id", tableId, "begin_snapshot", beginSnapshot));
    }
}
