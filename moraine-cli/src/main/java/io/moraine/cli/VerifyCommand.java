package io.moraine.cli;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.verify.InlineOrphanRepair;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.verify.StoreVerifier;
import io.moraine.core.verify.VerifyProblem;
import io.moraine.core.verify.VerifyReport;
import io.moraine.files.LakeFileSystems;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code bin/moraine verify --store <store uri> [--check-files] [--data-path P] [--checkpoint ID]}: checks the store's
 * invariants ({@link StoreVerifier}) without changing it (unless {@code --repair}: first remove the inline records of
 * tables no snapshot sees, {@link InlineOrphanRepair}), prints each problem on one line and a summary, and fails
 * (exit status 1) when there is a problem. With {@code --check-files} the lake's files are reached through the file
 * system of their data path, configured from the environment ({@link LakeFileSystems}), as {@code flush} does.
 */
final class VerifyCommand
{
    static final String USAGE = "verify --store <store-uri> [--store-timeout 30s] [--check-files] [--data-path <path>] [--checkpoint <id>] [--repair]";

    private VerifyCommand() {}

    static void run(String[] args)
    {
        run(args, System.out);
    }

    static VerifyReport run(String[] args, PrintStream out)
    {
        CommandLine line = CommandLine.parse(args, Set.of("store", CommandLine.STORE_TIMEOUT, "check-files", "data-path", "checkpoint", "repair"));
        if (!line.positional().isEmpty()) {
            throw new IllegalArgumentException("verify takes no positional arguments, not " + line.positional() + "; " + USAGE);
        }
        StoreUri store = StoreUri.parse(line.required("store"));
        StoreOptions storeOptions = line.storeOptions();
        Optional<String> checkpoint = line.option("checkpoint");
        if (checkpoint.isPresent()) {
            storeOptions = storeOptions.withCheckpoint(checkpoint.get());
        }
        if (line.flag("repair")) {
            if (checkpoint.isPresent()) {
                throw new IllegalArgumentException("--repair writes to the store and --checkpoint reads a fixed cut of it; give one of them");
            }
            repair(store, storeOptions, out);
        }
        StoreVerifier.Options options = new StoreVerifier.Options(Optional.empty(), line.option("data-path"));
        VerifyReport report;
        if (line.flag("check-files")) {
            try (LakeFileSystems files = LakeFileSystems.fromEnvironment(System.getenv())) {
                report = StoreVerifier.verify(store, storeOptions, options.withFiles(files));
            }
        }
        else {
            report = StoreVerifier.verify(store, storeOptions, options);
        }
        for (VerifyProblem problem : report.problems()) {
            out.println(problem.line());
        }
        out.println(store + ": " + report.summary());
        out.flush();
        if (!report.isClean()) {
            throw new CorruptionException("store " + store + " breaks " + report.problems().size() + " of its invariants (listed above)");
        }
        return report;
    }

    /** Removes what verify reports as {@code INLINE_ORPHAN} (nothing else), before verifying. */
    private static void repair(StoreUri store, StoreOptions storeOptions, PrintStream out)
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE, storeOptions)) {
            List<Long> tables = InlineOrphanRepair.run(catalog);
            out.println(tables.isEmpty() ? "repair: no inline records of tables no snapshot sees; nothing changed"
                    : "repair: removed the inline records of " + tables.size() + " table(s) no snapshot sees (table ids " + tables + ")");
        }
    }
}
