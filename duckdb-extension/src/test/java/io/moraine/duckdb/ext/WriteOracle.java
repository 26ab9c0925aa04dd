package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.write.WriteTransaction;
import org.apache.arrow.memory.RootAllocator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write oracle: a workload of {@link WriteOracleStep}s run once by DuckDB+DuckLake on a DuckDB-file catalog and
 * once by the core's write API on a moraine store that DuckDB's ATTACH created (so both share DuckLake's bootstrap);
 * then {@link #compare} checks (a) every {@code ducklake_*} table's rows, the inlined-data tables included, equal after
 * normalising only what must differ, (b) every table at every snapshot (all columns and rowid) and its change feed over
 * every range equal, with DuckDB reading the moraine lake through {@code ducklake:moraine:}. Both lakes are attached as
 * {@code lake} with metadata catalog {@code lake_meta}, so one SQL text runs on either.
 */
final class WriteOracle
        implements AutoCloseable
{
    /** Columns whose values differ by nature between two lakes that did the same: names, times, sizes. */
    private static final Set<String> NATURAL_COLUMNS = Set.of("file_size_bytes", "footer_size", "column_size_bytes");
    /** Tables whose {@code path} is a file name (DuckLake names files by UUID); schema and table paths are compared. */
    private static final Set<String> FILE_TABLES = Set.of("ducklake_data_file", "ducklake_delete_file", "ducklake_files_scheduled_for_deletion");
    private static final Set<String> NATURAL_TYPES = Set.of("TIMESTAMP WITH TIME ZONE", "UUID");

    private final Path store;
    private final Path data;
    private final String attachOptions;
    private final Connection oracle;
    private final RootAllocator allocator = new RootAllocator();
    private MoraineCatalog catalog;
    private int coreCommits;

    /** Counts of what {@link #compare} compared. */
    record Comparisons(long catalogTables, long catalogRows, long tableSnapshots, long tableRows, long changeFeeds, long changeRows)
    {
        long total()
        {
            return catalogTables + tableSnapshots + changeFeeds;
        }
    }

    private WriteOracle(Path store, Path data, String attachOptions, Connection oracle)
    {
        this.store = store;
        this.data = data;
        this.attachOptions = attachOptions;
        this.oracle = oracle;
    }

    /** Both lakes under {@code directory}, attached with {@code attachOptions} (e.g. {@code DATA_INLINING_ROW_LIMIT 50}). */
    static WriteOracle create(Path directory, String attachOptions)
            throws Exception
    {
        Path data = Files.createDirectories(directory.resolve("data"));
        Path oracleData = Files.createDirectories(directory.resolve("oracle-data"));
        Connection oracle = connection();
        try {
            execute(oracle, "ATTACH 'ducklake:" + directory.resolve("oracle.ducklake") + "' AS lake (DATA_PATH '" + oracleData
                    + "/', METADATA_CATALOG 'lake_meta', " + attachOptions + ")");
        }
        catch (Exception e) {
            oracle.close();
            throw e;
        }
        WriteOracle harness = new WriteOracle(directory.resolve("store"), data, attachOptions, oracle);
        // DuckLake's bootstrap creates the moraine lake, as it did the DuckDB-file one.
        try (Connection moraine = harness.moraineConnection(false)) {
            assertThat(query(moraine, "SELECT count(*) FROM lake_meta.ducklake_snapshot")).isEqualTo(List.of(List.of("1")));
        }
        return harness;
    }

    private static Connection connection()
            throws SQLException
    {
        Connection connection = ExtensionConnections.open();
        execute(connection, "SET threads = 1"); // DuckLake's catalog cache race after writes (RFC 0006)
        execute(connection, "LOAD ducklake");
        return connection;
    }

    private Connection moraineConnection(boolean readOnly)
            throws SQLException
    {
        closeCatalog();
        Connection connection = connection();
        try {
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/', METADATA_CATALOG 'lake_meta', "
                    + (readOnly ? "READ_ONLY" : attachOptions) + ")");
        }
        catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /** Runs every step on both lakes, in order. */
    void run(List<WriteOracleStep> steps)
            throws Exception
    {
        for (WriteOracleStep step : steps) {
            run(step);
        }
    }

    void run(WriteOracleStep step)
            throws Exception
    {
        try {
            for (String sql : step.duckDbSql()) {
                execute(oracle, sql);
            }
        }
        catch (SQLException e) {
            throw new AssertionError("step '" + step.name() + "' on the DuckDB-file lake: " + e.getMessage(), e);
        }
        if (!step.throughCore()) {
            try (Connection moraine = moraineConnection(false)) {
                for (String sql : step.duckDbSql()) {
                    execute(moraine, sql);
                }
            }
            catch (SQLException e) {
                throw new AssertionError("step '" + step.name() + "' through ducklake:moraine: " + e.getMessage(), e);
            }
            return;
        }
        if (catalog == null) {
            catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE);
        }
        WriteOracleCore core = new WriteOracleCore(catalog, WriteTransaction.begin(catalog), allocator);
        try {
            step.core().apply(core);
            core.tx().commit();
            coreCommits++;
        }
        catch (Exception | AssertionError e) {
            throw new AssertionError("step '" + step.name() + "' through the core's write API: " + e, e);
        }
        finally {
            core.closeBatches();
        }
    }

    /** How many transactions the core committed. */
    int coreCommits()
    {
        return coreCommits;
    }

    /** Compares both lakes as the class comment says; returns what it compared. */
    Comparisons compare()
            throws Exception
    {
        try (Connection moraine = moraineConnection(true)) {
            long[] catalogRows;
            AssertionError catalogDifferences = null;
            try {
                catalogRows = compareCatalogRows(moraine);
            }
            catch (AssertionError e) {
                // The tables and change feeds too, so one run shows every difference.
                catalogDifferences = e;
                catalogRows = new long[2];
            }
            long[] tables;
            long[] changes;
            try {
                tables = compareTablesAtEverySnapshot(moraine);
                changes = compareChangeFeeds(moraine);
            }
            catch (AssertionError e) {
                if (catalogDifferences != null) {
                    e.addSuppressed(catalogDifferences);
                }
                throw e;
            }
            if (catalogDifferences != null) {
                throw catalogDifferences;
            }
            Comparisons comparisons = new Comparisons(catalogRows[0], catalogRows[1], tables[0], tables[1], changes[0], changes[1]);
            System.out.printf("[write oracle] %d ducklake_* tables (%d rows), %d table-at-snapshot comparisons (%d rows), %d change feeds (%d rows); "
                    + "%d core commits%n", comparisons.catalogTables(), comparisons.catalogRows(), comparisons.tableSnapshots(), comparisons.tableRows(),
                    comparisons.changeFeeds(), comparisons.changeRows(), coreCommits);
            return comparisons;
        }
    }

    private long[] compareCatalogRows(Connection moraine)
            throws SQLException
    {
        String tablesSql = "SELECT table_name FROM duckdb_tables() WHERE database_name = 'lake_meta' AND table_name LIKE 'ducklake_%' ORDER BY 1";
        List<List<String>> tables = query(oracle, tablesSql);
        List<List<String>> moraineTables = query(moraine, tablesSql);
        List<String> differences = new ArrayList<>();
        if (!moraineTables.equals(tables)) {
            differences.add("metadata tables only in the DuckDB-file lake: " + minus(tables, moraineTables) + ", only in moraine: " + minus(moraineTables, tables));
        }
        tables = tables.stream().filter(moraineTables::contains).toList();
        long rows = 0;
        for (List<String> table : tables) {
            String name = table.getFirst();
            boolean inlinedData = name.matches("ducklake_inlined_(data|delete)_\\d+_\\d+");
            List<String> columns = new ArrayList<>();
            for (List<String> column : query(oracle, "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = 'lake_meta' AND table_name = '"
                    + name + "' ORDER BY column_index")) {
                String columnName = column.get(0);
                boolean natural = !inlinedData && (NATURAL_TYPES.contains(column.get(1)) || NATURAL_COLUMNS.contains(columnName)
                        || FILE_TABLES.contains(name) && columnName.equals("path"));
                if (!natural) {
                    columns.add("\"" + columnName + "\"");
                }
            }
            String filter = name.equals("ducklake_metadata") ? " WHERE key NOT IN ('created_by', 'data_path')" : "";
            String order = inlinedData ? "row_id, begin_snapshot" : "ALL";
            String select = "SELECT " + String.join(", ", columns) + " FROM lake_meta.main." + name + filter + " ORDER BY " + order;
            List<List<String>> expected = query(oracle, select);
            List<List<String>> actual = query(moraine, select);
            if (!actual.equals(expected)) {
                differences.add(name + " " + columns + "\n    only in the DuckDB-file lake: " + minus(expected, actual) + "\n    only in moraine:            "
                        + minus(actual, expected));
            }
            rows += expected.size();
        }
        assertThat(differences).as("catalog rows that differ").isEmpty();
        return new long[] {tables.size(), rows};
    }

    private static List<List<String>> minus(List<List<String>> rows, List<List<String>> others)
    {
        List<List<String>> remaining = new ArrayList<>(rows);
        others.forEach(remaining::remove);
        return remaining;
    }

    /** Every table name the lake ever had, as (schema, table). */
    private List<List<String>> tableNames()
            throws SQLException
    {
        return query(oracle, "SELECT DISTINCT s.schema_name, t.table_name FROM lake_meta.ducklake_table t JOIN lake_meta.ducklake_schema s USING (schema_id) "
                + "ORDER BY ALL");
    }

    private List<Long> snapshots()
            throws SQLException
    {
        return query(oracle, "SELECT snapshot_id FROM lake_meta.ducklake_snapshot ORDER BY 1").stream().map(row -> Long.parseLong(row.getFirst())).toList();
    }

    private long[] compareTablesAtEverySnapshot(Connection moraine)
            throws SQLException
    {
        long comparisons = 0;
        long rows = 0;
        List<List<String>> names = tableNames();
        List<Long> snapshots = snapshots();
        for (long snapshot : snapshots) {
            for (List<String> name : names) {
                String select = "SELECT *, rowid FROM lake.\"" + name.get(0) + "\".\"" + name.get(1) + "\" AT (VERSION => " + snapshot + ") ORDER BY rowid";
                rows += sameOrBothFail(moraine, select);
                comparisons++;
            }
        }
        assertThat(comparisons).isEqualTo((long) names.size() * snapshots.size());
        return new long[] {comparisons, rows};
    }

    /** ducklake_table_changes of every table over each pair of consecutive snapshots and over the whole history. */
    private long[] compareChangeFeeds(Connection moraine)
            throws SQLException
    {
        List<Long> snapshots = snapshots();
        List<long[]> ranges = new ArrayList<>();
        for (int i = 1; i < snapshots.size(); i++) {
            ranges.add(new long[] {snapshots.get(i - 1), snapshots.get(i)});
        }
        ranges.add(new long[] {snapshots.getFirst(), snapshots.getLast()});
        long comparisons = 0;
        long rows = 0;
        for (List<String> name : tableNames()) {
            for (long[] range : ranges) {
                String select = "SELECT * FROM ducklake_table_changes('lake', '" + name.get(0) + "', '" + name.get(1) + "', " + range[0] + ", " + range[1]
                        + ") ORDER BY snapshot_id, rowid, change_type";
                rows += sameOrBothFail(moraine, select);
                comparisons++;
            }
        }
        return new long[] {comparisons, rows};
    }

    /** The query's rows equal on both lakes, or it fails on both (a table absent at a snapshot); returns the rows compared. */
    private long sameOrBothFail(Connection moraine, String select)
    {
        List<List<String>> expected;
        try {
            expected = query(oracle, select);
        }
        catch (SQLException e) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> query(moraine, select)).as(select + " fails on the DuckDB-file lake: " + e.getMessage())
                    .isInstanceOf(SQLException.class);
            return 0;
        }
        try {
            assertThat(query(moraine, select)).as(select).isEqualTo(expected);
        }
        catch (SQLException e) {
            throw new AssertionError(select + " fails on the moraine lake but not on the DuckDB-file one: " + e.getMessage(), e);
        }
        return expected.size();
    }

    private void closeCatalog()
    {
        if (catalog != null) {
            catalog.close();
            catalog = null;
        }
    }

    @Override
    public void close()
            throws Exception
    {
        try (oracle; allocator) {
            closeCatalog();
        }
    }
}
