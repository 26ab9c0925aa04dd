package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.verify.StoreVerifier;
import io.moraine.core.verify.VerifyReport;
import io.moraine.core.write.maintenance.LakeMaintenance;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.function.Function;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two lakes of a maintenance oracle test under {@code directory} ({@link OracleLakes}' layout): a core operation run
 * on the detached moraine store, SQL run on the DuckDB-file lake alone, and the comparison of both afterwards.
 */
record MaintenanceLakes(Path directory, int inlineLimit)
{
    /** Runs a core operation on the moraine store, which must then verify with no problem it did not have before, files included. */
    <T> T core(Function<LakeMaintenance, T> operation)
    {
        List<String> before = problems();
        T result;
        try (MoraineCatalog catalog = MoraineCatalog.open(store(), OpenMode.READ_WRITE)) {
            result = operation.apply(new LakeMaintenance(catalog, LocalFileSystem.INSTANCE));
        }
        assertThat(before).containsAll(problems());
        return result;
    }

    StoreUri store()
    {
        return StoreUri.parse(directory.resolve("store").toString());
    }

    List<String> problems()
    {
        VerifyReport report = StoreVerifier.verify(store(), StoreOptions.DEFAULTS, StoreVerifier.Options.STORE_ONLY.withFiles(LocalFileSystem.INSTANCE));
        assertThat(report.checked("catalog rows")).as(report.summary()).isPositive();
        return report.problems().stream().map(String::valueOf).toList();
    }

    /** The rows of {@code sql} run on the DuckDB-file lake alone. */
    List<List<String>> onOracle(String sql)
            throws Exception
    {
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "SET threads = 1");
            execute(connection, "LOAD ducklake");
            execute(connection, "ATTACH 'ducklake:" + directory.resolve("oracle.ducklake") + "' AS lake (DATA_PATH '" + directory.resolve("oracle-data") + "/')");
            return query(connection, sql);
        }
    }

    /**
     * Compares every query of {@code catalog}, table {@code main.t} at each of {@code snapshots} with row ids and its
     * change feed across them; returns the number of comparisons made.
     */
    int compare(List<String> catalog, List<Long> snapshots)
            throws Exception
    {
        int compared = 0;
        try (OracleLakes lakes = OracleLakes.open(directory, inlineLimit)) {
            for (String sql : catalog) {
                lakes.same(sql);
                compared++;
            }
            for (long snapshot : snapshots) {
                lakes.same("SELECT *, rowid FROM lake.main.t AT (VERSION => " + snapshot + ") ORDER BY ALL");
                compared++;
            }
            lakes.same("SELECT * FROM ducklake_table_changes('lake', 'main', 't', " + snapshots.getFirst() + ", " + snapshots.getLast() + ") ORDER BY ALL");
            compared++;
        }
        return compared;
    }
}
