package io.moraine.cli;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tiny.TinyFilePublisher;
import io.moraine.core.tiny.TinyFileStatus;
import io.moraine.core.tiny.TinyFileSweeper;
import io.moraine.files.LakeFileSystems;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code bin/moraine tiny-files publish|status|sweep|configure --store <uri>} (docs/tiny-files.md): keeps copies of the
 * lake's tiny files in the catalog, reports them, deletes orphaned ones, and sets the store's threshold. Every verb but
 * status opens the store as its one writer.
 */
public final class TinyFileCommands
{
    public static final String USAGE = "tiny-files publish --store <store-uri> [--threshold-bytes N] [--table <schema>.<table>[,...]] [--concurrency 4] "
            + "[--data-path P] | tiny-files status --store <store-uri> | tiny-files sweep --store <store-uri> | tiny-files configure --store <store-uri> --threshold-bytes N";
    private static final Set<String> OPTIONS = Set.of("store", CommandLine.STORE_TIMEOUT, "threshold-bytes", "table", "concurrency", "data-path");

    private TinyFileCommands() {}

    public static void run(String[] args)
    {
        CommandLine line = CommandLine.parse(args, OPTIONS);
        List<String> verb = line.positional();
        if (verb.size() != 1 || !Set.of("publish", "status", "sweep", "configure").contains(verb.getFirst())) {
            throw new IllegalArgumentException("tiny-files takes one of publish, status, sweep, configure" + (verb.isEmpty() ? "" : ", not " + verb)
                    + "; usage: " + USAGE);
        }
        String command = verb.getFirst();
        // Every usage mistake is reported before the store is opened, so none fences a writer or touches the store.
        Optional<Long> threshold = line.option("threshold-bytes").map(TinyFileCommands::threshold);
        if (command.equals("configure") && threshold.isEmpty()) {
            throw new IllegalArgumentException("tiny-files configure needs --threshold-bytes N (0 turns copying off)");
        }
        if (!command.equals("publish") && !command.equals("configure") && threshold.isPresent()) {
            throw new IllegalArgumentException("--threshold-bytes goes with publish or configure, not " + command);
        }
        if (!command.equals("publish") && (line.option("table").isPresent() || line.option("concurrency").isPresent() || line.option("data-path").isPresent())) {
            throw new IllegalArgumentException("--table, --concurrency and --data-path go with publish, not " + command);
        }
        int concurrency = line.intOption("concurrency", TinyFilePublisher.Options.defaults().concurrency());
        if (concurrency < 1) {
            throw new IllegalArgumentException("--concurrency takes a whole number of at least 1, not " + concurrency);
        }
        StoreUri store = StoreUri.parse(line.required("store"));
        if (command.equals("status")) {
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY, line.storeOptions())) {
                status(catalog, store);
            }
            return;
        }
        System.err.println("opening " + store.text() + " as its one writer: a DuckDB (or other process) that has it attached READ_WRITE is fenced "
                + "(its next commit fails with FENCED; re-attach it). From a DuckDB application, call io.moraine.duckdb.ext.AttachedTinyFiles instead.");
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE, line.storeOptions())) {
            if (threshold.isPresent()) {
                catalog.setTinyFileThresholdBytes(threshold.get());
                System.err.println("tiny_file_threshold_bytes = " + threshold.get() + (threshold.get() == 0 ? " (off)" : ""));
            }
            switch (command) {
                case "publish" -> publish(line, catalog, concurrency);
                case "sweep" -> {
                    TinyFileSweeper.Result result = TinyFileSweeper.sweep(catalog);
                    System.out.printf("%,d copies: %,d deleted (their file has no row), %,d deleted as not whole%n", result.copies(), result.deleted(), result.corrupt());
                }
                default -> {}
            }
        }
    }

    private static void publish(CommandLine line, MoraineCatalog catalog, int concurrency)
    {
        Optional<List<Long>> tables;
        try (CatalogSnapshot snapshot = catalog.latest()) {
            tables = line.option("table").map(names -> tableIds(snapshot, names));
        }
        TinyFilePublisher.Options defaults = TinyFilePublisher.Options.defaults();
        TinyFilePublisher.Result result;
        try (LakeFileSystems files = LakeFileSystems.fromEnvironment(System.getenv()); TerminalProgress progress = TerminalProgress.start("tiny-files")) {
            TinyFilePublisher publisher = new TinyFilePublisher(files, new TinyFilePublisher.Options(concurrency, defaults.batchFiles(), defaults.batchBytes()),
                    (done, total) -> progress.update((int) done, (int) total, "files"));
            Thread cancelOnInterrupt = new Thread(publisher::cancel, "tiny-files-cancel");
            Runtime.getRuntime().addShutdownHook(cancelOnInterrupt);
            try {
                result = publisher.publish(catalog, line.option("data-path"), tables);
            }
            finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(cancelOnInterrupt);
                }
                catch (IllegalStateException e) {
                    // already shutting down: the hook is what cancelled the pass
                }
            }
        }
        if (result.thresholdBytes() == 0) {
            System.out.println("tiny_file_threshold_bytes is 0 (off): nothing copied; turn it on with --threshold-bytes N");
            return;
        }
        System.out.printf("snapshot %d, threshold %,d bytes: %,d files: %,d copied (%,d bytes, %,d %s), %,d already copied, %,d above the threshold, "
                + "%,d size mismatch, %,d missing, %,d unreadable, %,d not Parquet, %,d pruned while read%s%n", result.snapshotId(), result.thresholdBytes(),
                result.files(), result.published(), result.bytesWritten(), result.batches(), result.batches() == 1 ? "batch" : "batches", result.alreadyCopied(), result.oversize(), result.sizeMismatch(),
                result.missing(), result.unreadable(), result.notParquet(), result.goneBeforeWrite(), result.cancelled() ? " (cancelled)" : "");
    }

    private static void status(MoraineCatalog catalog, StoreUri store)
    {
        TinyFileStatus status = TinyFileStatus.of(catalog);
        System.out.printf("threshold %,d bytes%s; %,d copies holding %,d bytes of files (%,d bytes with keys and headers)%n", status.thresholdBytes(),
                status.thresholdBytes() == 0 ? " (off)" : "", status.copies(), status.copyBytes(), status.copyEntryBytes());
        System.out.printf("share of the catalog: %.1f%% of %,d bytes (every key and value, as a full scan of the store reads them, before compression)%n",
                100 * status.share(), status.catalogBytes());
        if (store.scheme() == StoreUri.Scheme.FILE) {
            System.out.printf("the store's objects on disk (SSTs, WAL, manifests): %,d bytes under %s%n", onDisk(Path.of("/" + store.dbPath())), "/" + store.dbPath());
        }
    }

    private static long onDisk(Path directory)
    {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> {
                try {
                    return Files.size(file);
                }
                catch (IOException e) {
                    return 0; // compacted away while listed
                }
            }).sum();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long threshold(String text)
    {
        try {
            long value = Long.parseLong(text);
            if (value >= 0) {
                return value;
            }
        }
        catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("--threshold-bytes takes a whole number of bytes, 0 or more (0 turns copying off), not '" + text + "'");
    }

    private static List<Long> tableIds(CatalogSnapshot snapshot, String tables)
    {
        List<Long> ids = new ArrayList<>();
        for (String name : tables.split(",")) {
            String trimmed = name.trim();
            int dot = trimmed.indexOf('.');
            if (dot <= 0 || dot == trimmed.length() - 1) {
                throw new IllegalArgumentException("--table takes <schema>.<table>[,...], not '" + trimmed + "'");
            }
            LakeTable table = snapshot.model().table(trimmed.substring(0, dot), trimmed.substring(dot + 1)).orElseThrow(() -> new io.moraine.core.error.NotFoundException(
                    "no table " + trimmed + " at snapshot " + snapshot.id() + "; list the tables with bin/moraine dump --table ducklake_table"));
            ids.add(table.id());
        }
        return ids;
    }
}
