package io.moraine.core.scan;

import io.moraine.core.changes.InsertedRows;
import io.moraine.core.changes.InsertedRowsTask;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.error.ErrorCode;
import io.moraine.core.error.PartialFileWithoutSnapshotsException;
import io.moraine.testing.PartialFileLake;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HiddenFieldsTest
{
    /** DuckLake's own error for a partial file without its snapshot column (ducklake_multi_file_reader.cpp). */
    private static final String DUCKLAKE_REFUSAL = "Snapshot filter was specified but snapshot column was not present in file";

    private static final MessageType WITH_BOTH = Types.buildMessage()
            .optional(PrimitiveTypeName.INT64).id(1).named("id")
            .optional(PrimitiveTypeName.INT64).id(DataFileTask.ROW_ID_FIELD_ID).named("_ducklake_internal_row_id")
            .optional(PrimitiveTypeName.INT64).id(DataFileTask.SNAPSHOT_ID_FIELD_ID).named("_ducklake_internal_snapshot_id")
            .named("duckdb_schema");
    private static final MessageType WITHOUT_SNAPSHOTS = Types.buildMessage()
            .optional(PrimitiveTypeName.INT64).id(1).named("id")
            .optional(PrimitiveTypeName.INT64).id(DataFileTask.ROW_ID_FIELD_ID).named("_ducklake_internal_row_id")
            .named("duckdb_schema");

    /** A flush output holding rows of snapshots 2 to 4, read at {@code snapshot}. */
    private static DataFileTask partial(long snapshot)
    {
        return new DataFileTask(1, snapshot, 7, "/lake/main/t/f.parquet", 1000, 5, OptionalLong.empty(), OptionalLong.empty(), 2, OptionalLong.of(4),
                List.of(), new long[0], OptionalLong.empty(), List.of(), 0, 1000);
    }

    @Test
    void aScanNeedsTheSnapshotsOfAPartialFileBeforeItsPartialMaxOnly()
    {
        assertThat(HiddenFields.forScan(partial(2)).needsRowSnapshots()).isTrue();
        assertThat(HiddenFields.forScan(partial(3)).needsRowSnapshots()).isTrue();
        assertThat(HiddenFields.forScan(partial(4)).needsRowSnapshots()).as("every row visible: DuckLake sets no filter").isFalse();
        assertThat(HiddenFields.forScan(partial(9)).needsRowSnapshots()).isFalse();
        DataFileTask whole = new DataFileTask(1, 3, 8, "/lake/main/t/g.parquet", 1000, 5, OptionalLong.empty(), OptionalLong.of(0), 2, OptionalLong.empty(),
                List.of(), new long[0], OptionalLong.empty(), List.of(), 0, 1000);
        assertThat(HiddenFields.forScan(whole).needsRowSnapshots()).isFalse();
        // the same rule as VisibleRows'
        assertThat(partial(3).filtersRowsBySnapshot()).isTrue();
        assertThat(partial(4).filtersRowsBySnapshot()).isFalse();
    }

    @Test
    void insertionsNeedTheSnapshotsOfAPartialFileWhenTheRangeDoesNotCoverItsSnapshots()
    {
        // DuckLake's GetTableInsertions: an upper filter when partial_max > end, a lower one when begin_snapshot < start
        assertThat(HiddenFields.forInsertions(partial(4), 2, 4).needsRowSnapshots()).isFalse();
        assertThat(HiddenFields.forInsertions(partial(9), 1, 9).needsRowSnapshots()).isFalse();
        assertThat(HiddenFields.forInsertions(partial(3), 2, 3).needsRowSnapshots()).isTrue();
        assertThat(HiddenFields.forInsertions(partial(4), 3, 4).needsRowSnapshots()).isTrue();
        assertThat(InsertedRows.of(new InsertedRowsTask(partial(4), 2, 4)).needsRowSnapshots()).isFalse();
        assertThat(InsertedRows.of(new InsertedRowsTask(partial(4), 3, 4)).needsRowSnapshots()).isTrue();
        assertThat(HiddenFields.forDeletions(partial(3)).needsRowSnapshots()).isFalse();
    }

    @Test
    void theHiddenFieldsAreFoundByFieldId()
    {
        HiddenFields.Found found = HiddenFields.forScan(partial(3)).in(WITH_BOTH, "main.t");
        assertThat(found.snapshots()).map(field -> field.getName()).hasValue("_ducklake_internal_snapshot_id");
        assertThat(found.rowIds()).map(field -> field.getName()).hasValue("_ducklake_internal_row_id");
        HiddenFields.Found none = HiddenFields.forScan(partial(4)).in(WITHOUT_SNAPSHOTS, "main.t");
        assertThat(none.snapshots()).isEmpty();
        assertThat(FieldIds.find(WITH_BOTH, 1)).map(field -> field.getName()).hasValue("id");
        assertThat(FieldIds.has(WITH_BOTH, 2)).isFalse();
    }

    @Test
    void aPartialFileWithoutItsSnapshotsIsRefusedWhenRowsMustBeToldApart()
    {
        assertThatThrownBy(() -> HiddenFields.forScan(partial(3)).in(WITHOUT_SNAPSHOTS, "main.t"))
                .isInstanceOf(PartialFileWithoutSnapshotsException.class)
                .isInstanceOf(CorruptionException.class)
                .hasMessage("data file 7 of table main.t (/lake/main/t/f.parquet) holds rows of snapshots 2 to 4 (partial_max) but has no "
                        + "_ducklake_internal_snapshot_id column (Parquet field id 2147483539), so which of its rows snapshot 3 sees cannot be told; "
                        + "DuckLake refuses this file too. Read the table at snapshot 4 or later, where every row of the file is visible, or restore the "
                        + "file as DuckLake wrote it (its flush and merge outputs have that column).")
                .satisfies(error -> {
                    PartialFileWithoutSnapshotsException refusal = (PartialFileWithoutSnapshotsException) error;
                    assertThat(refusal.code()).isEqualTo(ErrorCode.CORRUPTION);
                    assertThat(refusal.dataFileId()).isEqualTo(7);
                    assertThat(refusal.path()).isEqualTo("/lake/main/t/f.parquet");
                    assertThat(refusal.table()).isEqualTo("main.t");
                });
        assertThatThrownBy(() -> HiddenFields.forInsertions(partial(4), 3, 4).check(false, "main.t"))
                .isInstanceOf(PartialFileWithoutSnapshotsException.class)
                .hasMessageContaining("so which of its rows were inserted in snapshots 3 to 4 cannot be told")
                .hasMessageContaining("Ask for the changes of a range from snapshot 2 or earlier to snapshot 4 or later");
        HiddenFields.forInsertions(partial(4), 2, 4).check(false, "main.t");
        HiddenFields.forDeletions(partial(3)).check(false, "main.t");
    }

    /** What this rule copies: DuckLake 1.5.5 itself refuses the file exactly when a filter by snapshot is needed. */
    @Test
    void duckLakeRefusesAPartialFileWithoutItsSnapshotsBeforeItsPartialMax()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-partial-file");
        try (PartialFileLake lake = PartialFileLake.withoutSnapshotColumn(directory.resolve("stripped"))) {
            for (long snapshot : List.of(lake.firstInsert(), lake.secondInsert())) {
                assertThatThrownBy(() -> lake.oracle().query("SELECT id FROM lake.main.t AT (VERSION => " + snapshot + ")"))
                        .isInstanceOf(SQLException.class).hasMessageContaining(DUCKLAKE_REFUSAL);
            }
            assertThat(ids(lake, "SELECT id FROM lake.main.t AT (VERSION => " + lake.lastInsert() + ") ORDER BY id")).isEqualTo(lake.idsAt(lake.lastInsert()));
            assertThat(ids(lake, "SELECT id FROM lake.main.t ORDER BY id")).containsExactly(1L, 2L, 3L, 4L, 5L);
            assertThatThrownBy(() -> lake.oracle().query("SELECT id FROM ducklake_table_insertions('lake', 'main', 't', " + lake.secondInsert() + ", "
                    + lake.lastInsert() + ")")).isInstanceOf(SQLException.class).hasMessageContaining(DUCKLAKE_REFUSAL);
            assertThat(ids(lake, "SELECT id FROM ducklake_table_insertions('lake', 'main', 't', " + lake.firstInsert() + ", " + lake.lastInsert()
                    + ") ORDER BY id")).containsExactly(1L, 2L, 3L, 4L, 5L);
            // and reads the snapshot of every row as the file's begin_snapshot
            assertThat(lake.oracle().query("SELECT DISTINCT snapshot_id FROM ducklake_table_insertions('lake', 'main', 't', " + lake.firstInsert() + ", "
                    + lake.lastInsert() + ")")).containsExactly(List.of(Long.toString(lake.firstInsert())));
        }
        try (PartialFileLake lake = PartialFileLake.create(directory.resolve("whole"))) {
            for (long snapshot : List.of(lake.firstInsert(), lake.secondInsert(), lake.lastInsert())) {
                assertThat(ids(lake, "SELECT id FROM lake.main.t AT (VERSION => " + snapshot + ") ORDER BY id")).isEqualTo(lake.idsAt(snapshot));
            }
        }
    }

    private static List<Long> ids(PartialFileLake lake, String sql)
            throws SQLException
    {
        return lake.oracle().query(sql).stream().map(row -> Long.parseLong(row.getFirst())).toList();
    }
}
