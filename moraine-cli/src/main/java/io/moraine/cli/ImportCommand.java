package io.moraine.cli;

import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** {@code bin/moraine import --source <ducklake catalog> --store <store uri> [--store-timeout 30s] [--data-path <path>]}. */
final class ImportCommand
{
    static final String USAGE = "import --source ducklake:<catalog> --store <store-uri> [--store-timeout 30s] [--data-path <path>]";

    private ImportCommand() {}

    static void run(String[] args)
    {
        CommandLine line = CommandLine.parse(args, Set.of("source", "store", CommandLine.STORE_TIMEOUT, "data-path"));
        StoreOptions storeOptions = line.storeOptions();
        DuckLakeSource source = DuckLakeSource.parse(line.required("source"));
        StoreUri store = StoreUri.parse(line.required("store"));
        System.err.println("importing " + source.text() + " into " + store);
        long started = System.nanoTime();
        AtomicInteger tables = new AtomicInteger();
        CatalogImporter.Result result;
        try (TerminalProgress progress = TerminalProgress.start("import")) {
            // The catalog tables, then any inlined tables (their count is known only as they are read).
            result = CatalogImporter.importCatalog(source, store, line.option("data-path"), storeOptions,
                    (table, rows) -> progress.update(tables.incrementAndGet(), TableKind.values().length, String.format("read %s (%,d rows)", table, rows)));
        }
        System.err.printf("imported %,d catalog rows of %d tables (head snapshot %d) into %s in %.1f s%n", result.totalRows(), tables.get(),
                result.headSnapshotId(), store, (System.nanoTime() - started) / 1e9);
    }
}
