package io.moraine.duckdb.ext;

import io.moraine.core.row.Column;
import io.moraine.core.row.TableKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A query over a {@code ducklake_*} table without ORDER BY returns its rows in a DuckDB-file catalog's order (the
 * order DuckLake inserted them, an ended row where it was): DuckLake's own tests compare such results row by row.
 */
class CatalogRowOrderTest
{
    private static final List<String> WORKLOAD = List.of(
            "CREATE TABLE %1$s.a (k VARCHAR, v INTEGER DEFAULT 1)",
            "INSERT INTO %1$s.a VALUES ('x', 1)",
            "INSERT INTO %1$s.a VALUES ('y', 2)",
            "CREATE SCHEMA %1$s.s1",
            "CREATE TABLE %1$s.s1.b (k VARCHAR, v INTEGER)",
            "INSERT INTO %1$s.s1.b VALUES ('x', 1)",
            "INSERT INTO %1$s.s1.b VALUES ('y', 2)",
            "CREATE TABLE %1$s.c (k VARCHAR)",
            "INSERT INTO %1$s.c VALUES ('x')",
            "INSERT INTO %1$s.c VALUES ('y')",
            // Compaction of the later tables only: the merged files come after the first table's files.
            "CALL %1$s.set_option('auto_compact', false, table_name => 'a')",
            "SELECT * FROM ducklake_merge_adjacent_files('%1$s')",
            // A new version of a column of the first table comes after the later tables' columns.
            "ALTER TABLE %1$s.a ALTER v SET DEFAULT 1000",
            "ALTER TABLE %1$s.a RENAME COLUMN k TO key",
            "CREATE MACRO %1$s.simple(x) AS x",
            "DROP MACRO %1$s.simple",
            "CREATE MACRO %1$s.simple(x) AS x + 1",
            "DELETE FROM %1$s.a WHERE v = 2");

    @TempDir
    Path temp;

    @Test
    void ducklakeTablesWithoutOrderByComeInADuckDbFileCatalogsOrder()
            throws Exception
    {
        Files.createDirectories(temp.resolve("data"));
        Files.createDirectories(temp.resolve("oracle-data"));
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "SET threads = 1");
            execute(connection, "LOAD ducklake");
            execute(connection, "ATTACH 'ducklake:" + temp.resolve("oracle.ducklake") + "' AS oracle (DATA_PATH '"
                    + temp.resolve("oracle-data") + "/', DATA_INLINING_ROW_LIMIT 0)");
            execute(connection, "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '"
                    + temp.resolve("data") + "/', DATA_INLINING_ROW_LIMIT 0)");
            for (String step : WORKLOAD) {
                execute(connection, step.formatted("oracle"));
                execute(connection, step.formatted("lake"));
            }
            int compared = 0;
            for (TableKind kind : TableKind.values()) {
                if (kind == TableKind.METADATA) {
                    continue; // moraine serves its store facts first
                }
                String select = "SELECT " + String.join(", ", comparableColumns(kind)) + " FROM __ducklake_metadata_%s.main." + kind.tableName();
                List<List<String>> expected = query(connection, select.formatted("oracle"));
                assertThat(query(connection, select.formatted("lake"))).as(kind.tableName() + " rows, in order").isEqualTo(expected);
                compared += expected.size();
            }
            assertThat(compared).isGreaterThan(50);
        }
    }

    /** The columns whose values do not differ by nature between two lakes (times, UUIDs, file paths). */
    private static List<String> comparableColumns(TableKind kind)
    {
        List<String> columns = new ArrayList<>();
        for (Column column : kind.columns()) {
            boolean natural = switch (column.type()) {
                case TIMESTAMPTZ, UUID -> true;
                default -> column.name().equals("path") || column.name().equals("file_size_bytes") || column.name().equals("footer_size");
            };
            if (!natural) {
                columns.add("\"" + column.name() + "\"");
            }
        }
        return columns;
    }
}
