package io.moraine.cli;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.files.LakeFileSystems;
import io.moraine.inline.flush.InlineFlusher;

import java.util.List;
import java.util.Set;

/**
 * {@code bin/moraine flush --store <store uri> [--table schema.table]}: the lake's files are reached through the file
 * system of their data path, configured from the environment ({@link LakeFileSystems}).
 */
final class FlushCommand
{
    static final String USAGE = "flush --store <store-uri> [--store-timeout 30s] [--table <schema>.<table>]";

    private FlushCommand() {}

    static void run(String[] args)
    {
        CommandLine line = CommandLine.parse(args, Set.of("store", CommandLine.STORE_TIMEOUT, "table"));
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(line.required("store")), OpenMode.READ_WRITE, line.storeOptions());
                LakeFileSystems lakeFiles = LakeFileSystems.fromEnvironment(System.getenv())) {
            List<InlineFlusher.FlushedFile> files;
            try (TerminalProgress progress = TerminalProgress.start("flush")) {
                files = InlineFlusher.flush(catalog, line.option("table"), lakeFiles, progress::update);
            }
            if (files.isEmpty()) {
                System.err.println("nothing to flush: no inlined rows");
                return;
            }
            for (InlineFlusher.FlushedFile file : files) {
                System.err.printf("table %d, schema version %d: %,d rows (%,d ended) -> %s%n", file.tableId(), file.schemaVersion(),
                        file.rows(), file.endedRows(), file.dataFile());
            }
            System.err.println("flushed at snapshot " + catalog.headSnapshotId().orElseThrow());
        }
    }
}
