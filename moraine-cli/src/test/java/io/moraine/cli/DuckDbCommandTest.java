package io.moraine.cli;

import io.moraine.cli.CommandMistakesTest.Outcome;
import io.moraine.core.store.SlateStore;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.cli.CommandMistakesTest.Outcome;
import io.moraine.importer.DuckDbConnections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static io.moraine.cli.CommandMistakesTest.runInProcess;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/moraine duckdb}: DuckLake through {@code ducklake:moraine:<store>} attached as {@code lake}. Every run's
 * CSV equals what the same statements print on a DuckDB-file DuckLake catalog (the oracle, one session for all runs);
 * the modes map onto DuckLake's READ_ONLY / META_CHECKPOINT; a new store needs --data-path and a read-only run never
 * creates one.
 */
class DuckDbCommandTest
{
    @TempDir
    Path temp;

    private Connection oracle;
    private int comparisons;

    @BeforeEach
    void attachOracle()
            throws Exception
    {
        Files.createDirectories(temp.resolve("oracle-data"));
        oracle = DuckDbConnections.open("", "ducklake");
        try (Statement statement = oracle.createStatement()) {
            statement.execute("ATTACH 'ducklake:" + temp.resolve("oracle.ducklake") + "' AS lake (DATA_PATH '" + temp.resolve("oracle-data") + "/')");
        }
    }

    @AfterEach
    void closeOracle()
            throws Exception
    {
        oracle.close();
    }

    @Test
    void createsALakeRunsStatementsInOrderAndPrintsTheLastResult()
            throws Exception
    {
        String store = temp.resolve("store").toString();
        String data = temp.resolve("data").toString();
        assertSameAsOracle(List.of("--store", store, "--data-path", data),
                "CREATE SCHEMA lake.shop; CREATE TABLE lake.shop.items (id INTEGER, name VARCHAR, price DECIMAL(8, 2));"
                        + " INSERT INTO lake.shop.items VALUES (1, 'plain', 1.50), (2, 'with, comma', NULL), (3, 'with \"quote\"', 3.25);"
                        + " SELECT * FROM lake.shop.items ORDER BY id");
        assertThat(Files.list(Path.of(data)).count()).as("the new lake writes its files under --data-path").isPositive();

        // An existing lake keeps its data path: no --data-path needed; a Parquet insert and the snapshots.
        assertSameAsOracle(List.of("--store", store),
                "INSERT INTO lake.shop.items SELECT i, 'bulk-' || i, i * 0.5 FROM range(4, 2004) t(i); SELECT count(*) AS items, sum(price) AS total FROM lake.shop.items");
        assertSameAsOracle(List.of("--store", store), "SELECT snapshot_id, schema_version FROM ducklake_snapshots('lake') ORDER BY snapshot_id");
        assertSameAsOracle(List.of("--store", store), "SELECT * FROM lake.shop.items AT (VERSION => 3) ORDER BY id");

        // The catalog's own tables stay reachable.
        Outcome tables = run(List.of("--store", store, "SELECT count(*) AS snapshots FROM __ducklake_metadata_lake.ducklake_snapshot"));
        assertThat(tables.out()).isEqualTo("snapshots\n5\n");
        assertThat(comparisons).isEqualTo(4);
    }

    @Test
    void readOnlyAndCheckpointRunsMapOntoDuckLakesModes()
            throws Exception
    {
        String store = temp.resolve("store").toString();
        String data = temp.resolve("data").toString();
        assertSameAsOracle(List.of("--store", store, "--data-path", data),
                "CREATE TABLE lake.items (id INTEGER); INSERT INTO lake.items VALUES (1), (2); SELECT * FROM lake.items ORDER BY id");
        Outcome minted = run(List.of("--store", store, "SELECT checkpoint_id FROM moraine_create_checkpoint('__ducklake_metadata_lake')"));
        assertThat(minted.status()).as(minted.err()).isZero();
        String checkpoint = minted.out().lines().toList().get(1);
        assertSameAsOracle(List.of("--store", store, "--mode", "read-write"), "INSERT INTO lake.items VALUES (3); SELECT * FROM lake.items ORDER BY id");

        assertSameAsOracle(List.of("--store", store, "--mode", "read-only"), "SELECT * FROM lake.items ORDER BY id");
        Outcome refused = run(List.of("--store", store, "--mode", "read-only", "INSERT INTO lake.items VALUES (4)"));
        assertThat(refused.status()).isEqualTo(1);
        assertThat(refused.err()).containsIgnoringCase("read-only");

        // Pinned to the checkpoint: the third row came later, and nothing can be written.
        Outcome pinned = run(List.of("--store", store, "--checkpoint", checkpoint, "SELECT * FROM lake.items ORDER BY id"));
        assertThat(pinned.out()).as(pinned.err()).isEqualTo("id\n1\n2\n");
        Outcome pinnedWrite = run(List.of("--store", store, "--checkpoint", checkpoint, "INSERT INTO lake.items VALUES (4)"));
        assertThat(pinnedWrite.status()).isEqualTo(1);
        Outcome checkpointWithWrites = run(List.of("--store", store, "--checkpoint", checkpoint, "--mode", "read-write", "SELECT 1"));
        assertThat(checkpointWithWrites.status()).isEqualTo(2);
        assertThat(checkpointWithWrites.err()).contains("--mode read-write");
        assertSameAsOracle(List.of("--store", store), "SELECT * FROM lake.items ORDER BY id");
        assertThat(comparisons).isEqualTo(4);
    }

    @Test
    void aNewStoreNeedsADataPathAndAReadOnlyRunNeverCreatesOne()
    {
        Path store = temp.resolve("missing");
        Outcome noDataPath = run(List.of("--store", store.toString(), "CREATE TABLE lake.t (i INTEGER)"));
        assertThat(noDataPath.status()).isEqualTo(2);
        assertThat(noDataPath.err()).contains("holds no lake yet").contains("--data-path");

        Outcome readOnly = run(List.of("--store", store.toString(), "--mode", "read-only", "SELECT 1"));
        assertThat(readOnly.status()).isEqualTo(1);
        assertThat(readOnly.err()).contains(store.toString());
        assertThat(SlateStore.holdsData(StoreUri.parse(store.toString()), StoreOptions.DEFAULTS)).as("no run created the store").isFalse();

        Outcome noSql = run(List.of("--store", store.toString()));
        assertThat(noSql.status()).isEqualTo(2);
        assertThat(noSql.err()).contains("give the SQL to run");
    }

    private static Outcome run(List<String> args)
    {
        List<String> command = new ArrayList<>(List.of("duckdb"));
        command.addAll(args);
        return runInProcess(command);
    }

    /** Runs {@code sql} through the command and on the oracle; the command's CSV equals the oracle's last result. */
    private void assertSameAsOracle(List<String> options, String sql)
            throws Exception
    {
        List<String> args = new ArrayList<>(options);
        args.add(sql);
        Outcome outcome = run(args);
        assertThat(outcome.status()).as("exit status; it printed %s", outcome.err()).isZero();
        String expected;
        try (Statement statement = oracle.createStatement()) {
            assertThat(statement.execute(sql)).as("the oracle's last statement returns rows").isTrue();
            try (ResultSet result = statement.getResultSet()) {
                expected = csv(result);
            }
        }
        assertThat(expected.lines().count()).as("the oracle's rows and header").isGreaterThan(1);
        assertThat(outcome.out()).as("CSV of: %s", sql).isEqualTo(expected);
        comparisons++;
    }

    /** CSV as RFC 4180 writes it (quoted when holding a comma, quote or newline, or empty); NULL is an empty field. */
    private static String csv(ResultSet result)
            throws Exception
    {
        StringBuilder text = new StringBuilder();
        int columns = result.getMetaData().getColumnCount();
        List<String> header = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
            header.add(quoted(result.getMetaData().getColumnLabel(i)));
        }
        text.append(String.join(",", header)).append('\n');
        while (result.next()) {
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= columns; i++) {
                String value = result.getString(i);
                row.add(value == null ? "" : quoted(value));
            }
            text.append(String.join(",", row)).append('\n');
        }
        return text.toString();
    }

    private static String quoted(String text)
    {
        return text.isEmpty() || text.matches("(?s).*[,\"\\n\\r].*") ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }
}
