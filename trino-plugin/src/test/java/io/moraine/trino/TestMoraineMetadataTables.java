package io.moraine.trino;

import io.moraine.core.catalog.CatalogDump;
import io.moraine.core.catalog.CellText;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeTable;
import io.moraine.testing.OracleSample;
import io.moraine.testing.OracleSample.TableSnapshot;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Metadata tables ({@code "t$snapshots"}, ...), the raw {@code ducklake} schema and hidden columns, read through Trino
 * for the oracle workload (plus inlined inserts, an inlined update and an inlined delete after it) at the engines' sample
 * of table snapshots, compared with DuckDB + DuckLake and with the core's dump.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineMetadataTables
{
    /**
     * After the workload (which flushes every inlined row): rows that stay inlined, one updated and one deleted; then a
     * transaction that updates a row it inserted.
     */
    private static final List<String> INLINED_STEPS = List.of(
            "INSERT INTO lake.sales.orders (id, client, amount, note) VALUES (200001, 'inline-1', 1.00, 'a'), (200002, 'inline-2', 2.00, 'b'), "
                    + "(200003, 'inline-3', 3.00, 'c')",
            "UPDATE lake.sales.orders SET amount = 9.99 WHERE id = 200001",
            "DELETE FROM lake.sales.orders WHERE id = 200002",
            // One transaction inserting Parquet rows and updating most of them: its only change entry is
            // inserted_into_table, yet the update's file embeds row ids (DuckDB's transaction-local 10^18 + position).
            "BEGIN TRANSACTION",
            "INSERT INTO lake.sales.orders (id, client, amount, note) SELECT 300000 + i, 'tx', 1.00, 'tx' FROM range(500) t(i)",
            // enough rows for the new versions to be written to Parquet rather than inlined
            "UPDATE lake.sales.orders SET note = 'tx-updated' WHERE id BETWEEN 300000 AND 300399",
            "COMMIT");

    private DuckLakeOracle oracle;
    private QueryRunner trino;
    private DuckLakeHistory history;
    private Path directory;

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-trino-metadata");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        for (String step : INLINED_STEPS) {
            oracle.execute(step);
        }
        trino = MoraineQueryRunner.create(oracle, directory, "main");
        history = DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake"));
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void rawTablesEqualTheDump()
            throws Exception
    {
        long rows = 0;
        long tables = 0;
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(directory.resolve("store").toString()), OpenMode.READ_ONLY)) {
            for (TableKind kind : TableKind.values()) {
                StringWriter dump = new StringWriter();
                long dumped = CatalogDump.writeCsv(catalog, kind, dump);
                MaterializedResult result = trino.execute("SELECT * FROM lake.ducklake." + kind.tableName());
                StringBuilder csv = new StringBuilder(String.join(",", result.getColumnNames())).append('\n');
                for (MaterializedRow row : result.getMaterializedRows()) {
                    csv.append(row.getFields().stream().map(value -> CatalogDump.csvField(cell(value))).collect(Collectors.joining(","))).append('\n');
                }
                assertThat(sortedLines(csv.toString())).as(kind.tableName()).isEqualTo(sortedLines(dump.toString()));
                assertThat(result.getRowCount()).isEqualTo(dumped);
                rows += dumped;
                tables++;
            }
        }
        assertThat(tables).isEqualTo(28);
        // the workload's catalog holds a few hundred rows (files, stats, columns, snapshots)
        assertThat(rows).isGreaterThan(300); // 354 today
        assertThat(trino.execute("SHOW TABLES FROM lake.ducklake").getRowCount()).isEqualTo(28);
        assertThatThrownBy(() -> trino.execute("SELECT * FROM lake.ducklake.ducklake_snapshot FOR VERSION AS OF 3"))
                .hasMessageContaining("has no FOR VERSION AS OF");
    }

    @Test
    void snapshotTablesMatchDuckLakeAtSampledSnapshots()
            throws Exception
    {
        long compared = 0;
        List<TableSnapshot> sample = sampledTableSnapshots();
        for (TableSnapshot pair : sample) {
            long snapshot = pair.snapshot();
            LakeTable table = pair.table();
            List<List<String>> expected = oracle.query("SELECT s.snapshot_id, CAST(s.snapshot_time AS VARCHAR), s.schema_version, c.changes_made, c.author, "
                    + "c.commit_message, c.commit_extra_info FROM __ducklake_metadata_lake.ducklake_snapshot s "
                    + "LEFT JOIN __ducklake_metadata_lake.ducklake_snapshot_changes c USING (snapshot_id) WHERE s.snapshot_id <= " + snapshot + " ORDER BY 1");
            assertThat(rows("SELECT * FROM " + metadataTable(table, "snapshots") + " FOR VERSION AS OF " + snapshot + " ORDER BY snapshot_id"))
                    .as("%s$snapshots at %s", table, snapshot).isEqualTo(expected);
            assertThat(rows("SELECT * FROM " + metadataTable(table, "current_snapshot") + " FOR VERSION AS OF " + snapshot))
                    .as("%s$current_snapshot at %s", table, snapshot).isEqualTo(List.of(expected.getLast()));
            assertThat(rows("SELECT snapshot_id, change_type, change_value FROM " + metadataTable(table, "snapshot_changes") + " FOR VERSION AS OF " + snapshot
                    + " ORDER BY snapshot_id, change_type, change_value"))
                    .as("%s$snapshot_changes at %s", table, snapshot).isEqualTo(expectedChanges(table, snapshot));
            compared += 3;
        }
        assertThat(compared).isEqualTo(3L * sample.size());
        // Without a version: the newest snapshot.
        assertThat(rows("SELECT snapshot_id FROM lake.sales.\"orders$current_snapshot\""))
                .isEqualTo(oracle.query("SELECT max(snapshot_id) FROM ducklake_snapshots('lake')"));
    }

    /** The changes_made entries that concern the table, split as DuckDB wrote them (no workload name holds a comma). */
    private List<List<String>> expectedChanges(LakeTable table, long snapshot)
            throws SQLException
    {
        List<String> ids = oracle.query("SELECT t.table_id, min(t.begin_snapshot) FROM __ducklake_metadata_lake.ducklake_table t JOIN "
                + "__ducklake_metadata_lake.ducklake_schema s USING (schema_id) WHERE s.schema_name = '" + table.schema() + "' AND t.table_name = '" + table.name()
                + "' AND t.begin_snapshot <= " + snapshot + " AND (t.end_snapshot IS NULL OR t.end_snapshot > " + snapshot + ") GROUP BY t.table_id").getFirst();
        List<List<String>> expected = new ArrayList<>();
        for (List<String> row : oracle.query("SELECT snapshot_id, changes_made FROM __ducklake_metadata_lake.ducklake_snapshot_changes WHERE snapshot_id <= " + snapshot)) {
            for (String entry : row.get(1).split(",")) {
                String type = entry.substring(0, entry.indexOf(':'));
                String value = entry.substring(entry.indexOf(':') + 1);
                boolean concerns = value.equals(ids.get(0)) ? !type.endsWith("_schema") && !type.endsWith("_view") : type.equals("created_table") && row.get(0).equals(ids.get(1));
                if (concerns) {
                    expected.add(List.of(row.get(0), type, value));
                }
            }
        }
        expected.sort(Comparator.comparing((List<String> row) -> Long.parseLong(row.get(0))).thenComparing(row -> row.get(1)).thenComparing(row -> row.get(2)));
        return expected;
    }

    @Test
    void filesAndPartitionsMatchDuckLakeAtSampledSnapshots()
            throws Exception
    {
        long compared = 0;
        long files = 0;
        List<TableSnapshot> sample = sampledTableSnapshots();
        for (TableSnapshot pair : sample) {
            long snapshot = pair.snapshot();
            LakeTable table = pair.table();
            String visible = "f.begin_snapshot <= " + snapshot + " AND (f.end_snapshot IS NULL OR f.end_snapshot > " + snapshot + ")";
            String metadata = "__ducklake_metadata_lake.";
            String partitionText = "SELECT f.data_file_id, string_agg(CASE WHEN pc.transform = 'identity' THEN c.column_name "
                    + "ELSE pc.transform || '(' || c.column_name || ')' END || '=' || coalesce(pv.partition_value, 'NULL'), ', ' ORDER BY pc.partition_key_index) "
                    + "AS partition_values FROM " + metadata + "ducklake_data_file f "
                    + "JOIN " + metadata + "ducklake_partition_column pc ON pc.partition_id = f.partition_id AND pc.table_id = f.table_id "
                    + "JOIN " + metadata + "ducklake_column c ON c.table_id = pc.table_id AND c.column_id = pc.column_id AND c.begin_snapshot <= " + snapshot
                    + " AND (c.end_snapshot IS NULL OR c.end_snapshot > " + snapshot + ") "
                    + "LEFT JOIN " + metadata + "ducklake_file_partition_value pv ON pv.data_file_id = f.data_file_id AND pv.partition_key_index = pc.partition_key_index "
                    + "GROUP BY f.data_file_id";
            List<List<String>> expected = oracle.query("WITH partition_text AS (" + partitionText + ") "
                    + "SELECT f.data_file_id, l.data_file, f.file_format, f.record_count, f.file_size_bytes, f.footer_size, "
                    + "f.row_id_start, f.begin_snapshot, f.partial_max, f.file_order, f.partition_id, p.partition_values, "
                    + "l.delete_file, CAST(l.delete_file_size_bytes AS BIGINT) "
                    + "FROM ducklake_list_files('lake', '" + table.name() + "', schema => '" + table.schema() + "', snapshot_version => " + snapshot + ") l "
                    + "JOIN " + metadata + "ducklake_data_file f ON l.data_file LIKE '%' || f.path AND " + visible
                    + " AND f.table_id = (SELECT table_id FROM " + metadata + "ducklake_table t JOIN " + metadata + "ducklake_schema s USING (schema_id) "
                    + "WHERE s.schema_name = '" + table.schema() + "' AND t.table_name = '" + table.name() + "' LIMIT 1) "
                    + "LEFT JOIN partition_text p ON p.data_file_id = f.data_file_id ORDER BY 1");
            List<List<String>> actual = rows("SELECT data_file_id, path, file_format, record_count, file_size_bytes, footer_size, row_id_start, begin_snapshot, "
                    + "partial_max, file_order, partition_id, partition_values, delete_file_path, delete_file_size_bytes FROM " + metadataTable(table, "files")
                    + " FOR VERSION AS OF " + snapshot + " ORDER BY 1");
            assertThat(actual).as("%s$files at %s", table, snapshot).isEqualTo(expected);
            files += actual.size();
            // $partitions aggregates $files per partition
            assertThat(rows("SELECT * FROM " + metadataTable(table, "partitions") + " FOR VERSION AS OF " + snapshot + " ORDER BY 1, 2"))
                    .as("%s$partitions at %s", table, snapshot)
                    .isEqualTo(rows("SELECT partition_id, partition_values, count(*), sum(record_count), sum(file_size_bytes), count(delete_file_id), "
                            + "sum(coalesce(delete_count, 0) + inlined_delete_count) FROM " + metadataTable(table, "files") + " FOR VERSION AS OF " + snapshot
                            + " GROUP BY 1, 2 ORDER BY 1, 2"));
            compared += 2;
        }
        assertThat(compared).isEqualTo(2L * sample.size());
        assertThat(files).isGreaterThan(50); // 74 today
        assertThat(rows("SELECT partition_values, file_count FROM lake.main.\"events$partitions\" WHERE partition_values = 'year(ts)=2024, kind=k0'"))
                .isEqualTo(List.of(List.of("year(ts)=2024, kind=k0", "1")));
    }

    @Test
    void hiddenColumnsMatchDuckLakeAtSampledSnapshots()
            throws Exception
    {
        long compared = 0;
        long rows = 0;
        long inlinedRows = 0;
        List<TableSnapshot> sample = sampledTableSnapshots();
        for (TableSnapshot pair : sample) {
            long snapshot = pair.snapshot();
            LakeTable table = pair.table();
            List<List<String>> expected = sorted(withoutInlinedFileNames(oracle.query("SELECT rowid, filename, file_row_number, snapshot_id FROM "
                    + table.sqlName("lake") + " AT (VERSION => " + snapshot + ")")));
            inlinedRows += expected.stream().filter(row -> row.get(1) == null).count();
            List<List<String>> actual = sorted(rows("SELECT \"$row_id\", \"$path\", \"$file_row_number\", \"$snapshot_id\" FROM " + table.sqlName("lake")
                    + " FOR VERSION AS OF " + snapshot));
            assertThat(actual).as("hidden columns of %s at %s", table, snapshot).isEqualTo(expected);
            // $file_size_bytes is the size $files gives the row's file
            assertThat(rows("SELECT count(*) FROM " + table.sqlName("lake") + " FOR VERSION AS OF " + snapshot + " h JOIN " + metadataTable(table, "files")
                    + " FOR VERSION AS OF " + snapshot + " f ON h.\"$path\" = f.path AND h.\"$file_size_bytes\" = f.file_size_bytes"))
                    .isEqualTo(List.of(List.of(String.valueOf(expected.stream().filter(row -> row.get(1) != null).count()))));
            rows += expected.size();
            compared++;
        }
        assertThat(compared).isEqualTo(sample.size());
        assertThat(rows).isGreaterThan(40_000); // 46,405 today
        // the inlined rows after the workload at the sampled snapshots after their insert: 5 today (3, then 2 at the
        // newest, one updated and one deleted)
        assertThat(inlinedRows).isGreaterThanOrEqualTo(5);
        // Hidden columns are not part of SELECT *.
        assertThat(trino.execute("SELECT * FROM lake.main.events LIMIT 1").getColumnNames()).containsExactly("ts", "kind", "v");
    }

    @Test
    void rowIdAndPathPredicatesReadWhatDuckLakeReads()
            throws Exception
    {
        // Updated rows keep their row ids in files that embed them, inlined rows have their own: every kind of row id.
        List<String> rowIdFilters = List.of("= 1", "= 39", "= 5000", "= 5036", "IN (2, 700, 5001)", "BETWEEN 30 AND 45", "BETWEEN 4990 AND 5100", "> 5030", "< 0",
                "> 999999999999999999");
        long compared = 0;
        long pathCompared = 0;
        long withoutFiles = 0;
        // A pushdown of Trino's own: the sampled table snapshots (OracleSample) cover every table and kind of row.
        List<TableSnapshot> sample = sampledTableSnapshots();
        for (TableSnapshot pair : sample) {
            LakeTable table = pair.table();
            long snapshot = pair.snapshot();
            for (String filter : rowIdFilters) {
                assertThat(sorted(rows("SELECT \"$row_id\", \"$path\" FROM " + table.sqlName("lake") + " FOR VERSION AS OF " + snapshot + " WHERE \"$row_id\" " + filter)))
                        .as("%s at %s WHERE $row_id %s", table, snapshot, filter)
                        .isEqualTo(sorted(withoutInlinedFileNames(oracle.query("SELECT rowid, filename FROM " + table.sqlName("lake") + " AT (VERSION => " + snapshot
                                + ") WHERE rowid " + filter))));
                compared++;
            }
            List<List<String>> paths = oracle.query("SELECT data_file FROM ducklake_list_files('lake', '" + table.name() + "', schema => '" + table.schema()
                    + "', snapshot_version => " + snapshot + ") ORDER BY 1 LIMIT 1");
            if (paths.isEmpty()) {
                withoutFiles++;
                continue;
            }
            String path = paths.getFirst().getFirst();
            assertThat(sorted(rows("SELECT \"$row_id\" FROM " + table.sqlName("lake") + " FOR VERSION AS OF " + snapshot + " WHERE \"$path\" = '" + path + "'")))
                    .as("%s at %s WHERE $path = %s", table, snapshot, path)
                    .isEqualTo(sorted(oracle.query("SELECT rowid FROM " + table.sqlName("lake") + " AT (VERSION => " + snapshot + ") WHERE filename = '" + path + "'")));
            pathCompared++;
        }
        assertThat(compared).isEqualTo((long) rowIdFilters.size() * sample.size()).isGreaterThanOrEqualTo(10 * 15);
        // every sampled pair but those where a table has no data file yet (events before its first insert)
        assertThat(withoutFiles).isLessThanOrEqualTo(4);
        assertThat(pathCompared).isEqualTo(sample.size() - withoutFiles);
    }

    /**
     * Trino's metadata tables and hidden columns are compared on the engines' sample of table snapshots
     * ({@link OracleSample#tableSnapshots}: every table at its newest and oldest snapshot and every third back).
     */
    private List<TableSnapshot> sampledTableSnapshots()
            throws SQLException
    {
        List<TableSnapshot> sample = OracleSample.tableSnapshots(history);
        OracleSample.assertTableSnapshotSample(history, sample);
        return sample;
    }

    @Test
    void badMetadataTableNamesAreClearErrors()
    {
        assertThatThrownBy(() -> trino.execute("SELECT * FROM lake.sales.\"orders$nope\""))
                .hasMessageContaining("names no metadata table of orders")
                .hasMessageContaining("$files");
        assertThatThrownBy(() -> trino.execute("SELECT * FROM lake.sales.\"absent$files\"")).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> trino.execute("SELECT * FROM lake.main.\"dropped$files\"")).hasMessageContaining("does not exist");
    }

    /**
     * DuckDB names an inlined row's file by its inlined data table ({@code ducklake_inlined_data_2_6}); moraine keeps
     * inlined rows in its own store, and their {@code $path} (and file columns) is NULL.
     */
    private static List<List<String>> withoutInlinedFileNames(List<List<String>> rows)
    {
        List<List<String>> result = new ArrayList<>();
        for (List<String> row : rows) {
            List<String> copy = new ArrayList<>(row);
            if (copy.get(1) != null && copy.get(1).startsWith("ducklake_inlined_data_")) {
                copy.set(1, null);
                if (copy.size() > 2) {
                    copy.set(2, null);
                }
            }
            result.add(copy);
        }
        return result;
    }

    private static String metadataTable(LakeTable table, String suffix)
    {
        return "lake." + table.schema() + ".\"" + table.name() + "$" + suffix + "\"";
    }

    private List<List<String>> rows(String sql)
    {
        List<List<String>> rows = new ArrayList<>();
        for (MaterializedRow row : trino.execute(sql).getMaterializedRows()) {
            rows.add(row.getFields().stream().map(TestMoraineMetadataTables::cell).collect(Collectors.toCollection(ArrayList::new)));
        }
        return rows;
    }

    /** A Trino value as DuckDB's VARCHAR cast prints it. */
    private static String cell(Object value)
    {
        return switch (value) {
            case null -> null;
            case ZonedDateTime time -> CellText.of(time.toInstant());
            case UUID uuid -> uuid.toString();
            default -> value.toString();
        };
    }

    private static List<List<String>> sorted(List<List<String>> rows)
    {
        List<List<String>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(row -> String.join("\u0001", row.stream().map(cell -> cell == null ? "\u0000" : cell).toList())));
        return copy;
    }

    private static List<String> sortedLines(String text)
    {
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        String header = lines.removeFirst();
        lines.sort(Comparator.naturalOrder());
        lines.addFirst(header);
        return lines;
    }
}
