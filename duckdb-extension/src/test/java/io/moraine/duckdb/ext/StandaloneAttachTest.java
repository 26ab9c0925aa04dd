package io.moraine.duckdb.ext;

import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.DuckLakeOracle.CatalogDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The oracle workload, written by DuckDB + DuckLake and imported into a store, read back through
 * {@code ATTACH ... (TYPE moraine)} in a stock duckdb_jdbc connection: every ducklake_* table and every inlined table
 * equals the source catalog's, columns, types and rows (as multisets, current and history rows alike).
 */
class StandaloneAttachTest
{
    @TempDir
    Path temp;

    @Test
    void everyCatalogTableAndInlinedTableEqualsTheSourceBeforeTheFlush()
            throws Exception
    {
        Path catalogFile = writeLake(DuckLakeOracle.WORKLOAD_BEFORE_FLUSH);
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + catalogFile), store, Optional.empty(), CatalogImporter.Progress.SILENT);
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH '" + catalogFile + "' AS src (READ_ONLY)");
            execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY)");
            Comparison comparison = compareEveryTable(connection);
            assertThat(comparison.inlinedTables).as("inlined tables compared").isGreaterThanOrEqualTo(3);
            assertThat(comparison.tables).isEqualTo(TableKind.values().length + comparison.inlinedTables);
            assertThat(comparison.rows).isPositive();
        }
    }

    @Test
    void everyCatalogTableEqualsTheSourceAfterTheWholeWorkload()
            throws Exception
    {
        Path catalogFile = writeLake(DuckLakeOracle.WORKLOAD);
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + catalogFile), store, Optional.empty(), CatalogImporter.Progress.SILENT);
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH '" + catalogFile + "' AS src (READ_ONLY)");
            execute(connection, "ATTACH 'moraine:" + store + "' AS m");
            Comparison comparison = compareEveryTable(connection);
            assertThat(comparison.tables).isEqualTo(TableKind.values().length + comparison.inlinedTables);

            // Projection, row ids and a join DuckDB plans over two scans.
            assertThat(count(connection, "SELECT count(*) FROM (SELECT rowid, path FROM m.ducklake_data_file)"))
                    .isEqualTo(count(connection, "SELECT count(*) FROM src.ducklake_data_file"));
            assertThat(query(connection, "SELECT max(rowid) + 1 = count(*) FROM m.ducklake_snapshot")).containsExactly(List.of("true"));
            assertThat(query(connection, "SELECT t.table_name, count(*) FROM m.ducklake_table t JOIN m.ducklake_column c USING (table_id) "
                    + "GROUP BY ALL ORDER BY ALL"))
                    .isEqualTo(query(connection, "SELECT t.table_name, count(*) FROM src.ducklake_table t JOIN src.ducklake_column c "
                            + "USING (table_id) GROUP BY ALL ORDER BY ALL"));

            // User tables are listed and described, and refuse their rows with the DuckLake attach to use.
            assertThat(query(connection, "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = 'm' "
                    + "AND table_name NOT LIKE 'ducklake_%' ORDER BY ALL"))
                    .containsExactly(List.of("main", "events"), List.of("sales", "orders"));
            assertThat(query(connection, "SELECT column_name, column_type FROM (DESCRIBE m.sales.orders)"))
                    .contains(List.of("id", "BIGINT"), List.of("client", "VARCHAR"), List.of("note", "VARCHAR"));
            assertThat(query(connection, "EXPLAIN SELECT * FROM m.sales.orders")).isNotEmpty();
            assertThatThrownBy(() -> query(connection, "SELECT * FROM m.sales.orders"))
                    .hasMessageContaining("Invalid Input Error")
                    .hasMessageContaining("ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '")
                    .satisfies(e -> assertThat(e.getMessage().toLowerCase()).doesNotContain("conflict", "unique", "primary key", "concurrent"));
            // The session goes on.
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_schema")).isEqualTo(count(connection, "SELECT count(*) FROM src.ducklake_schema"));
        }
    }

    /** The comparison counts: tables compared, inlined tables among them, rows compared. */
    record Comparison(int tables, int inlinedTables, long rows) {}

    /** Compares every ducklake_* table of attach {@code m} with the source catalog attached as {@code src}. */
    static Comparison compareEveryTable(Connection connection)
            throws Exception
    {
        String listing = "SELECT table_name FROM duckdb_tables() WHERE database_name = '%s' AND schema_name = 'main' "
                + "AND table_name LIKE 'ducklake_%%' ORDER BY table_name";
        List<List<String>> sourceTables = query(connection, listing.formatted("src"));
        assertThat(query(connection, listing.formatted("m"))).as("the ducklake_* tables listed").isEqualTo(sourceTables);
        int tables = 0;
        int inlined = 0;
        long rows = 0;
        for (List<String> row : sourceTables) {
            String table = row.getFirst();
            String columns = "SELECT column_name, data_type, column_index FROM duckdb_columns() WHERE database_name = '%s' "
                    + "AND schema_name = 'main' AND table_name = '" + table + "' ORDER BY column_index";
            assertThat(query(connection, columns.formatted("m"))).as(table + " columns and types").isEqualTo(query(connection, columns.formatted("src")));
            long sourceRows = count(connection, "SELECT count(*) FROM src.main." + table);
            assertThat(count(connection, "SELECT count(*) FROM m.main." + table)).as(table + " rows").isEqualTo(sourceRows);
            assertThat(count(connection, "SELECT count(*) FROM (FROM src.main." + table + " EXCEPT ALL FROM m.main." + table + ")"))
                    .as(table + ": source rows missing from the attach").isZero();
            assertThat(count(connection, "SELECT count(*) FROM (FROM m.main." + table + " EXCEPT ALL FROM src.main." + table + ")"))
                    .as(table + ": attach rows not in the source").isZero();
            tables++;
            rows += sourceRows;
            if (table.matches("ducklake_inlined_data_\\d+_\\d+|ducklake_inlined_delete_\\d+")) {
                inlined++;
            }
        }
        System.out.printf("[standalone attach] %d tables compared (%d inlined), %d rows each way%n", tables, inlined, rows);
        return new Comparison(tables, inlined, rows);
    }

    private Path writeLake(List<String> steps)
            throws Exception
    {
        Path lake = temp.resolve("lake");
        try (DuckLakeOracle oracle = DuckLakeOracle.create(lake, CatalogDatabase.DUCKDB)) {
            for (String step : steps) {
                oracle.execute(step);
            }
            oracle.detach();
        }
        return lake.resolve("catalog.ducklake");
    }
}
