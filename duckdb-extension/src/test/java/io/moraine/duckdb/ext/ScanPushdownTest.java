package io.moraine.duckdb.ext;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.DuckLakeOracle.CatalogDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What DuckDB pushes into a moraine scan: filters (static, and a hash join's key range once its build side is known)
 * and MIN/MAX answered from a column's range without a scan. Every answer is compared with the same query on the
 * DuckDB-file catalog the store was imported from, whose rows are equal (StandaloneAttachTest).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScanPushdownTest
{
    @TempDir
    static Path temp;

    private Path catalogFile;
    private StoreUri store;

    @BeforeAll
    void importTheOracleWorkload()
            throws Exception
    {
        Path lake = temp.resolve("lake");
        try (DuckLakeOracle oracle = DuckLakeOracle.create(lake, CatalogDatabase.DUCKDB)) {
            for (String step : DuckLakeOracle.WORKLOAD) {
                oracle.execute(step);
            }
            oracle.detach();
        }
        catalogFile = lake.resolve("catalog.ducklake");
        store = StoreUri.parse(temp.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + catalogFile), store, Optional.empty(), CatalogImporter.Progress.SILENT);
    }

    @Test
    void filteredScansOfEveryTableReturnWhatTheSourceReturns()
            throws Exception
    {
        try (Connection connection = attachBoth()) {
            int compared = 0;
            int matchedRows = 0;
            for (String table : catalogTables(connection)) {
                for (String predicate : predicates(connection, table)) {
                    String filtered = "FROM {catalog}.main." + table + " WHERE " + predicate;
                    assertSameRows(connection, filtered);
                    compared++;
                    if (count(connection, "SELECT count(*) " + filtered.replace("{catalog}", "src")) > 0) {
                        matchedRows++;
                    }
                }
            }
            // Joins: DuckLake's snapshot query (the build side's key becomes the probe scan's filter), a join on table_id.
            assertSameRows(connection, "FROM {catalog}.ducklake_snapshot WHERE snapshot_id = (SELECT max(snapshot_id) FROM {catalog}.ducklake_snapshot)");
            assertSameRows(connection, "SELECT d.data_file_id, t.table_name FROM {catalog}.ducklake_data_file d JOIN {catalog}.ducklake_table t "
                    + "USING (table_id) WHERE t.table_name = 'orders'");
            assertSameRows(connection, "FROM {catalog}.ducklake_snapshot_changes c WHERE c.snapshot_id > (SELECT max(snapshot_id) - 3 FROM {catalog}.ducklake_snapshot)");
            compared += 3;
            System.out.printf("[scan pushdown] %d filtered queries compared with the source, %d of them matching rows%n", compared, matchedRows);
            assertThat(compared).isGreaterThan(300);
            assertThat(matchedRows).isGreaterThan(compared / 3);
        }
    }

    @Test
    void minAndMaxOfEveryBigintColumnEqualTheSourceAndReadNoRows()
            throws Exception
    {
        try (Connection connection = attachBoth()) {
            int compared = 0;
            for (String table : catalogTables(connection)) {
                for (String column : columnsOfType(connection, table, "BIGINT")) {
                    String aggregate = "SELECT min(" + column + "), max(" + column + ") FROM %s.main." + table;
                    assertThat(query(connection, aggregate.formatted("m"))).as(aggregate).isEqualTo(query(connection, aggregate.formatted("src")));
                    compared++;
                }
            }
            System.out.printf("[scan pushdown] min and max of %d BIGINT columns compared with the source%n", compared);
            assertThat(compared).isGreaterThan(50);

            String plan = String.join("\n", query(connection, "EXPLAIN SELECT max(snapshot_id) FROM m.ducklake_snapshot").getFirst());
            assertThat(plan).as("the plan of MAX(snapshot_id)").doesNotContain("MORAINE_SCAN").doesNotContain("TABLE_SCAN");
            String scanned = String.join("\n", query(connection, "EXPLAIN SELECT max(snapshot_time) FROM m.ducklake_snapshot").getFirst());
            assertThat(scanned).as("a TIMESTAMPTZ column has no range: its MAX scans").containsAnyOf("MORAINE_SCAN", "TABLE_SCAN");
        }
    }

    @Test
    void aColumnsRangeFollowsTheTransactionsOwnWritesAndNewCommits()
            throws Exception
    {
        Path data = Files.createDirectories(temp.resolve("new-lake-data"));
        StoreUri newStore = StoreUri.parse(temp.resolve("new-store").toString());
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH 'ducklake:moraine:" + newStore + "' AS lake (DATA_PATH '" + data + "/')");
            String maximum = "SELECT max(snapshot_id) FROM __ducklake_metadata_lake.ducklake_snapshot";
            long first = count(connection, maximum);
            try (PreparedStatement prepared = connection.prepareStatement(maximum)) {
                assertThat(single(prepared)).isEqualTo(first);
                execute(connection, "CREATE TABLE lake.t (a INTEGER)");
                execute(connection, "INSERT INTO lake.t VALUES (1)");
                assertThat(single(prepared)).as("a prepared MAX after two commits").isEqualTo(first + 2);
            }

            execute(connection, "BEGIN");
            execute(connection, "INSERT INTO __ducklake_metadata_lake.ducklake_snapshot VALUES (" + (first + 100) + ", now(), 0, 0, 0)");
            assertThat(count(connection, maximum)).as("MAX sees the transaction's own row").isEqualTo(first + 100);
            execute(connection, "DELETE FROM __ducklake_metadata_lake.ducklake_snapshot WHERE snapshot_id >= " + (first + 2));
            assertThat(count(connection, maximum)).as("MAX after the transaction deleted the newest rows").isEqualTo(first + 1);
            execute(connection, "ROLLBACK");
            assertThat(count(connection, maximum)).isEqualTo(first + 2);
            assertThat(count(connection, "SELECT count(*) FROM lake.t")).isEqualTo(1);
        }
    }

    private Connection attachBoth()
            throws Exception
    {
        Connection connection = ExtensionConnections.open();
        execute(connection, "ATTACH '" + catalogFile + "' AS src (READ_ONLY)");
        execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY)");
        return connection;
    }

    /** {@code query} with {catalog} as the catalog: the same rows (as multisets) from the attach and from the source. */
    private static void assertSameRows(Connection connection, String query)
            throws Exception
    {
        String moraine = query.replace("{catalog}", "m");
        String source = query.replace("{catalog}", "src");
        assertThat(count(connection, "SELECT count(*) FROM (" + moraine + ")")).as(moraine).isEqualTo(count(connection, "SELECT count(*) FROM (" + source + ")"));
        assertThat(count(connection, "SELECT count(*) FROM (" + source + " EXCEPT ALL " + moraine + ")")).as(moraine + ": rows missing").isZero();
    }

    private static List<String> catalogTables(Connection connection)
            throws Exception
    {
        return query(connection, "SELECT table_name FROM duckdb_tables() WHERE database_name = 'src' AND schema_name = 'main' "
                + "AND table_name LIKE 'ducklake_%' ORDER BY table_name").stream().map(List::getFirst).toList();
    }

    private static List<String> columnsOfType(Connection connection, String table, String type)
            throws Exception
    {
        return query(connection, "SELECT column_name FROM duckdb_columns() WHERE database_name = 'src' AND schema_name = 'main' "
                + "AND table_name = '" + table + "' AND data_type = '" + type + "' ORDER BY column_index").stream().map(List::getFirst).toList();
    }

    /** Comparisons, IN lists, NULL tests and their AND/OR combinations over the table's BIGINT and VARCHAR columns, at values it holds. */
    private static List<String> predicates(Connection connection, String table)
            throws Exception
    {
        List<String> predicates = new ArrayList<>();
        for (String column : columnsOfType(connection, table, "BIGINT")) {
            List<String> values = query(connection, "SELECT min(" + column + "), quantile_disc(" + column + ", 0.5), max(" + column + ") FROM src.main." + table)
                    .getFirst();
            predicates.add(column + " IS NULL");
            predicates.add(column + " IS NOT NULL");
            if (values.getFirst() == null) {
                continue;
            }
            String low = values.get(0);
            String middle = values.get(1);
            String high = values.get(2);
            predicates.add(column + " = " + middle);
            predicates.add(column + " <> " + middle);
            predicates.add(column + " < " + middle);
            predicates.add(column + " >= " + middle);
            predicates.add(column + " > " + high);
            predicates.add(column + " IN (" + low + ", " + high + ")");
            predicates.add("(" + column + " = " + low + " OR " + column + " = " + high + ")");
            predicates.add(column + " BETWEEN " + low + " AND " + middle);
            predicates.add(column + " = " + middle + " AND rowid >= 0");
        }
        for (String column : columnsOfType(connection, table, "VARCHAR")) {
            List<String> values = query(connection, "SELECT quantile_disc(" + column + ", 0.5) FROM src.main." + table).getFirst();
            predicates.add(column + " IS NULL");
            if (values.getFirst() == null) {
                continue;
            }
            String middle = "'" + values.getFirst().replace("'", "''") + "'";
            predicates.add(column + " = " + middle);
            predicates.add(column + " > " + middle);
            predicates.add(column + " LIKE '%a%'");
        }
        return predicates;
    }

    private static long single(PreparedStatement statement)
            throws Exception
    {
        try (ResultSet result = statement.executeQuery()) {
            assertThat(result.next()).isTrue();
            return result.getLong(1);
        }
    }
}
