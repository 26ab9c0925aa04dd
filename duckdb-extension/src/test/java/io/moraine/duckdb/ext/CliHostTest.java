package io.moraine.duckdb.ext;

import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreUri;
import io.moraine.duckdb.ext.NonJvmHosts.ImportedLake;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The comparison of {@link StandaloneAttachTest} from DuckDB's own command-line shell (PyPI's duckdb-cli 1.5.5), a
 * host without a JVM: the extension starts the JVM itself from MORAINE_JAVA_HOME and MORAINE_CLASSPATH, and one SQL
 * statement compares every ducklake_* and inlined table of the source catalog with the attached store.
 */
class CliHostTest
{
    @TempDir
    Path temp;

    @Test
    void duckDbsShellReadsEveryCatalogAndInlinedTableThroughTheExtension()
            throws Exception
    {
        ImportedLake lake = NonJvmHosts.importWorkloadBeforeFlush(temp);
        Path catalogFile = lake.catalogFile();
        StoreUri store = lake.store();
        List<String> tables = catalogTables(catalogFile);
        long inlined = tables.stream().filter(table -> table.matches("ducklake_inlined_(data_\\d+_\\d+|delete_\\d+)")).count();
        assertThat(inlined).isGreaterThanOrEqualTo(3);
        assertThat(tables).hasSize(TableKind.values().length + (int) inlined);

        String preamble = "SET TimeZone = 'UTC';\n"
                + "LOAD '" + ExtensionConnections.extension() + "';\n"
                + "ATTACH '" + catalogFile + "' AS src (READ_ONLY);\n"
                + "ATTACH 'moraine:" + store + "' AS m (READ_ONLY);\n";
        String output = runShell(preamble + comparison(tables), true);
        List<String> lines = output.lines().toList();
        // The JVM the extension starts may print warnings of its own before the result.
        int header = lines.indexOf("table_name,source_rows,attached_rows,missing,extra");
        assertThat(header).as(output).isNotNegative();
        List<String> rows = lines.subList(header + 1, header + 1 + tables.size() + 2);
        assertThat(rows).as("one line per table, plus the listings and the columns").allMatch(row -> row.matches("'?[a-z_0-9]+'?,\\d+,\\d+,\\d+,\\d+"));
        long comparedRows = 0;
        for (String row : rows) {
            String[] fields = row.split(",");
            assertThat(fields[1]).as("%s: row counts", row).isEqualTo(fields[2]);
            assertThat(fields[3]).as("%s: source rows missing from the store", row).isEqualTo("0");
            assertThat(fields[4]).as("%s: store rows not in the source", row).isEqualTo("0");
            comparedRows += Long.parseLong(fields[1]);
        }
        assertThat(comparedRows).isPositive();
        System.out.printf("[cli host] tables=%d inlined=%d rows compared=%d%n", tables.size(), inlined, comparedRows);

        String refusal = runShell(preamble + "SELECT * FROM m.sales.orders;\n", false);
        assertThat(refusal).contains("ducklake:moraine:");
    }

    /** One row per table: its row counts on both sides and the rows each side lacks (as multisets). */
    private static String comparison(List<String> tables)
    {
        String listing = "(SELECT table_name, column_name, data_type, column_index FROM duckdb_columns() WHERE database_name = '%s' "
                + "AND schema_name = 'main' AND table_name LIKE 'ducklake_%%')";
        List<String> parts = new ArrayList<>();
        parts.add(setComparison("'columns'", listing.formatted("src"), listing.formatted("m")));
        String tableListing = "(SELECT table_name FROM duckdb_tables() WHERE database_name = '%s' AND schema_name = 'main' "
                + "AND table_name LIKE 'ducklake_%%')";
        parts.add(setComparison("'listing'", tableListing.formatted("src"), tableListing.formatted("m")));
        for (String table : tables) {
            parts.add(setComparison("'" + table + "'", "src.main." + table, "m.main." + table));
        }
        return ".mode csv\n" + parts.stream().collect(Collectors.joining("\nUNION ALL\n")) + ";\n";
    }

    private static String setComparison(String name, String source, String attached)
    {
        return "SELECT " + name + " AS table_name, (SELECT count(*) FROM " + source + ") AS source_rows, "
                + "(SELECT count(*) FROM " + attached + ") AS attached_rows, "
                + "(SELECT count(*) FROM (FROM " + source + " EXCEPT ALL FROM " + attached + ")) AS missing, "
                + "(SELECT count(*) FROM (FROM " + attached + " EXCEPT ALL FROM " + source + ")) AS extra";
    }

    private static List<String> catalogTables(Path catalogFile)
            throws Exception
    {
        List<String> tables = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = connection.createStatement()) {
            statement.execute("ATTACH '" + catalogFile + "' AS src (READ_ONLY)");
            try (ResultSet rows = statement.executeQuery("SELECT table_name FROM duckdb_tables() WHERE database_name = 'src' "
                    + "AND schema_name = 'main' AND table_name LIKE 'ducklake_%' ORDER BY table_name")) {
                while (rows.next()) {
                    tables.add(rows.getString(1));
                }
            }
        }
        return tables;
    }

    /** Runs a script in the shell (`-unsigned`, the script on standard input) and returns what it printed. */
    private String runShell(String script, boolean mustSucceed)
            throws Exception
    {
        String shell = NonJvmHosts.run(temp, new ProcessBuilder("../build-support/duckdb-cli.sh"), true).strip();
        Path input = Files.createTempFile(temp, "script", ".sql");
        Files.writeString(input, script);
        ProcessBuilder host = new ProcessBuilder(shell, "-unsigned", "-bail").redirectInput(input.toFile());
        return NonJvmHosts.run(temp, NonJvmHosts.withJavaSide(host), mustSucceed);
    }
}
