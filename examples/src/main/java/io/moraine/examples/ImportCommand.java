package io.moraine.examples;

import io.moraine.core.store.StoreUri;
import io.moraine.duckdb.CatalogImporter;
import io.moraine.duckdb.DuckLakeSource;

import java.util.Set;

/** {@code bin/moraine import --source <ducklake catalog> --store <store uri> [--data-path <path>]}. */
final class ImportCommand
{
    static final String USAGE = "import --source ducklake:<catalog> --store <store-uri> [--data-path <path>]";

    private ImportCommand() {}

    static void run(String[] args)
    {
        CommandLine line = CommandLine.parse(args, Set.of("source", "store", "data-path"));
        DuckLakeSource source = DuckLakeSource.parse(line.required("source"));
        StoreUri store = StoreUri.parse(line.required("store"));
        System.err.println("importing " + source.text() + " into " + store);
        long started = System.nanoTime();
        CatalogImporter.Result result = CatalogImporter.importCatalog(source, store, line.option("data-path"),
                (table, rows) -> System.err.printf("  read %-40s %,10d rows%n", table, rows));
        System.err.printf("imported %,d rows (head snapshot %d) into %s in %.1f s%n", result.totalRows(), result.headSnapshotId(),
                store, (System.nanoTime() - started) / 1e9);
    }
}
