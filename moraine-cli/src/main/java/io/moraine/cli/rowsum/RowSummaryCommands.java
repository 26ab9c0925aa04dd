package io.moraine.cli.rowsum;

import io.moraine.cli.CommandFailure;
import io.moraine.cli.CommandLine;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.row.Row;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.store.StoreUri;
import io.moraine.files.LakeFileSystems;
import io.moraine.sidecars.rowsum.PublishOutcomes;
import io.moraine.sidecars.rowsum.PublishRecord;
import io.moraine.sidecars.rowsum.RowSummaryCensus;
import io.moraine.sidecars.rowsum.RowSummaryMetrics;
import io.moraine.sidecars.rowsum.RowSummaryPublisher;
import io.moraine.sidecars.rowsum.RowSummaryReader;
import io.moraine.sidecars.rowsum.RowSummarySweep;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code bin/moraine rowsum publish|sweep|status --store <uri>}: publishes the lake's {@code .rowsum} sidecars (RFC
 * 0023), deletes those whose data file is gone, and reports how far the lake is published. The lake's files are
 * reached through the file system of their data path, configured from the environment ({@link LakeFileSystems}).
 */
public final class RowSummaryCommands
{
    public static final String USAGE = "rowsum publish --store <store-uri> [--since <snapshot> --table <schema>.<table>[,...]] [--concurrency 4] [--attempts 4] "
            + "[--data-path P] | rowsum sweep --store <store-uri> [--data-path P] | rowsum status --store <store-uri> [--data-path P]";
    private static final Set<String> OPTIONS = Set.of("store", CommandLine.STORE_TIMEOUT, "data-path", "since", "table", "concurrency", "attempts");

    private RowSummaryCommands() {}

    public static void run(String[] args)
    {
        CommandLine line = CommandLine.parse(args, OPTIONS);
        List<String> verb = line.positional();
        if (verb.size() != 1) {
            throw new IllegalArgumentException("rowsum takes one of publish, sweep, status; usage: " + USAGE);
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(line.required("store")), OpenMode.READ_ONLY, line.storeOptions());
                CatalogSnapshot snapshot = catalog.latest();
                LakeFileSystems files = LakeFileSystems.fromEnvironment(System.getenv())) {
            String dataPath = line.option("data-path").orElseGet(() -> snapshot.facts().get(StoreFacts.DATA_PATH));
            switch (verb.getFirst()) {
                case "publish" -> publish(line, snapshot, dataPath, files);
                case "sweep" -> sweep(dataPath, files);
                case "status" -> status(snapshot, dataPath, files);
                default -> throw new IllegalArgumentException("unknown rowsum command '" + verb.getFirst() + "'; usage: " + USAGE);
            }
        }
    }

    private static void publish(CommandLine line, CatalogSnapshot snapshot, String dataPath, LakeFileSystems files)
    {
        RowSummaryPublisher.Options defaults = RowSummaryPublisher.Options.defaults();
        RowSummaryPublisher.Options options = new RowSummaryPublisher.Options(line.intOption("concurrency", defaults.concurrency()),
                line.intOption("attempts", defaults.attempts()), defaults.initialBackoff(), defaults.maxBackoff());
        ProgressBar bar = ProgressBar.onTerminal();
        RowSummaryPublisher publisher = new RowSummaryPublisher(files, options, bar);
        Thread cancelOnInterrupt = new Thread(publisher::cancel, "rowsum-cancel");
        Runtime.getRuntime().addShutdownHook(cancelOnInterrupt);
        PublishOutcomes outcomes;
        try {
            if (line.option("since").isPresent() != line.option("table").isPresent()) {
                throw new IllegalArgumentException("--since and --table go together (the files of those tables registered after that snapshot); "
                        + "without either, publish backfills every table");
            }
            outcomes = line.option("since").isPresent()
                    ? publisher.publishSince(snapshot, dataPath, tableIds(snapshot, line.required("table")), since(line.required("since")))
                    : publisher.publishAll(snapshot, dataPath);
        }
        finally {
            bar.finish();
            try {
                Runtime.getRuntime().removeShutdownHook(cancelOnInterrupt);
            }
            catch (IllegalStateException e) {
                // already shutting down: the hook is what cancelled the pass
            }
        }
        System.out.printf("snapshot %d: %,d files: %,d published (%,d bytes), %,d already published, %,d dense (no sidecar needed), %,d failed, %,d retries%s%n",
                snapshot.id(), outcomes.files(), outcomes.published(), outcomes.bytesWritten(), outcomes.alreadyPublished(), outcomes.dense(),
                outcomes.failed(), outcomes.retries(), outcomes.cancelled() ? " (cancelled)" : "");
        String scope = line.option("since").map(since -> "since snapshot " + since + " of " + line.required("table")).orElse("backfill");
        try {
            new PublishRecord(snapshot.id(), java.time.Instant.now(), scope, outcomes).write(files, dataPath);
        }
        catch (IOException | RuntimeException e) {
            System.err.println("warning: the outcomes were not recorded in " + PublishRecord.path(dataPath) + " (rowsum status will not show them): " + e.getMessage());
        }
        if (outcomes.failed() > 0) {
            System.out.println("failed: " + reasons(outcomes));
            throw new CommandFailure(outcomes.failed() + " sidecars could not be published (see the warnings above); run publish again to retry them", null);
        }
    }

    private static void sweep(String dataPath, LakeFileSystems files)
    {
        try {
            RowSummarySweep.Result result = RowSummarySweep.sweep(files, dataPath);
            System.out.printf("%s: %,d files listed, %,d sidecars, %,d deleted (their data file is gone)%n", dataPath, result.filesListed(), result.sidecars(), result.deleted());
        }
        catch (IOException e) {
            throw new CommandFailure("could not sweep " + dataPath + ": " + e.getMessage(), e);
        }
    }

    private static void status(CatalogSnapshot snapshot, String dataPath, LakeFileSystems files)
    {
        RowSummaryMetrics metrics = new RowSummaryMetrics();
        RowSummaryCensus.Counts counts = RowSummaryCensus.take(snapshot, dataPath, new RowSummaryReader(files, metrics));
        RowSummaryMetrics.Snapshot read = metrics.snapshot();
        long sidecarObjects;
        long stranded;
        try {
            List<String> listed = files.listFiles(dataPath);
            Set<String> present = new java.util.HashSet<>(listed);
            sidecarObjects = listed.stream().filter(path -> path.endsWith(".rowsum")).count();
            stranded = listed.stream().filter(path -> path.endsWith(".rowsum") && !present.contains(path.substring(0, path.length() - ".rowsum".length()))).count();
        }
        catch (IOException e) {
            throw new CommandFailure("could not list " + dataPath + ": " + e.getMessage(), e);
        }
        System.out.printf("snapshot %d: %,d tables, %,d data files: %,d dense (answered from the catalog), %,d with a usable sidecar, %,d without%n",
                snapshot.id(), counts.tables(), counts.dataFiles(), counts.dense(), counts.usable(), counts.dataFiles() - counts.dense() - counts.usable());
        System.out.printf("sidecar reads: %,d hit, %,d miss (none published), %,d rejected on identity, %,d unknown version, %,d corrupt or short, %,d read errors; %,d bytes read%n",
                read.hits(), read.misses(), read.rejectedIdentity(), read.rejectedVersion(), read.rejectedCorrupt(), read.readErrors(), read.bytesRead());
        System.out.printf("%s: %,d .rowsum objects, %,d stranded (their data file is gone: rowsum sweep deletes them)%n", dataPath, sidecarObjects, stranded);
        System.out.println(lastPublish(files, dataPath));
    }

    /** The outcomes the last publish pass recorded ({@link PublishRecord}), as one line. */
    private static String lastPublish(LakeFileSystems files, String dataPath)
    {
        Optional<PublishRecord> record;
        try {
            record = PublishRecord.read(files, dataPath);
        }
        catch (IOException e) {
            return "last publish: unreadable: " + e.getMessage();
        }
        if (record.isEmpty()) {
            return "last publish: none recorded (" + PublishRecord.path(dataPath) + " is absent; rowsum publish writes it)";
        }
        PublishRecord last = record.get();
        PublishOutcomes outcomes = last.outcomes();
        return String.format("last publish: snapshot %d, %s, finished %s: %,d files: %,d published (%,d bytes), %,d already published, %,d dense (skipped), %,d failed%s, %,d retries%s",
                last.snapshotId(), last.scope(), last.finishedAt(), outcomes.files(), outcomes.published(), outcomes.bytesWritten(), outcomes.alreadyPublished(),
                outcomes.dense(), outcomes.failed(), outcomes.failed() == 0 ? "" : " (" + reasons(outcomes) + ")", outcomes.retries(), outcomes.cancelled() ? " (cancelled)" : "");
    }

    private static String reasons(PublishOutcomes outcomes)
    {
        return outcomes.failedByReason().entrySet().stream().map(entry -> String.format("%,d %s", entry.getValue(), entry.getKey()))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static List<Long> tableIds(CatalogSnapshot snapshot, String tables)
    {
        List<Long> ids = new ArrayList<>();
        for (String name : Arrays.stream(tables.split(",")).map(String::trim).filter(text -> !text.isEmpty()).toList()) {
            int dot = name.indexOf('.');
            if (dot <= 0 || dot == name.length() - 1) {
                throw new IllegalArgumentException("--table takes <schema>.<table>[,...], not '" + name + "'");
            }
            LakeTable table = snapshot.model().table(name.substring(0, dot), name.substring(dot + 1)).orElseThrow(() -> new IllegalArgumentException(
                    "no table " + name + " at snapshot " + snapshot.id() + "; list the tables with bin/moraine dump"));
            ids.add(table.id());
        }
        return ids;
    }

    private static long since(String text)
    {
        try {
            return Long.parseLong(text);
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("--since takes a snapshot id (files registered after it are published), not '" + text + "'");
        }
    }

    /** A one-line bar on standard error when it is a terminal; nothing otherwise. */
    private static final class ProgressBar
            implements RowSummaryPublisher.Progress
    {
        private static final int WIDTH = 40;
        private final boolean terminal;
        private long lastDrawn = -1;

        private ProgressBar(boolean terminal)
        {
            this.terminal = terminal;
        }

        static ProgressBar onTerminal()
        {
            return new ProgressBar(System.console() != null && System.console().isTerminal());
        }

        @Override
        public synchronized void filesDone(long done, long total)
        {
            if (!terminal || total == 0) {
                return;
            }
            long filled = Math.min(WIDTH, done * WIDTH / total);
            if (filled == lastDrawn && done != total && done % 100 != 0) {
                return;
            }
            lastDrawn = filled;
            System.err.print("\r[" + "#".repeat((int) filled) + ".".repeat(WIDTH - (int) filled) + "] " + done + "/" + total + " files");
        }

        synchronized void finish()
        {
            if (terminal && lastDrawn >= 0) {
                System.err.println();
            }
        }
    }
}
