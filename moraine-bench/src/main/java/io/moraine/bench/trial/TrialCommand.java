package io.moraine.bench.trial;

import io.moraine.cli.CommandFailure;
import io.moraine.cli.CommandLine;
import io.moraine.cli.HostedCommands;
import io.moraine.core.store.StoreOptions;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * {@code bin/moraine trial crash|faults}: kills a committing child process ({@link TrialChild}) with SIGKILL, at a
 * random moment or at an aimed phase, trial after trial on one store, and checks after each kill what survived
 * ({@link TrialChecker}). {@code faults} puts a {@link FaultProxy} between the children and the S3 server.
 */
public final class TrialCommand
{
    /** Totals over every trial: the figures the command prints last and a test asserts on. */
    public record Totals(int trials, int kills, long acknowledged, long landedUnacknowledged, long lost, long partial, long verifyProblems,
            long childFailures, Map<FaultProxy.Fault, Long> faults)
    {
        public boolean passed()
        {
            return lost == 0 && partial == 0 && verifyProblems == 0 && kills == trials && acknowledged > 0;
        }
    }

    private TrialCommand() {}

    public static void run(String[] args)
            throws Exception
    {
        Totals totals = run(args, System.out);
        if (totals.trials() > 0 && !totals.passed()) {
            throw new CommandFailure("the trials failed: " + totals.lost() + " lost, " + totals.partial() + " partial, " + totals.verifyProblems()
                    + " verify problems, " + (totals.trials() - totals.kills()) + " trials without a kill, " + totals.acknowledged() + " acknowledged", null);
        }
    }

    public static Totals run(String[] args, PrintStream out)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("trials", "store", "committers", "writers", "seed", "fault-rate", CommandLine.STORE_TIMEOUT, "work", "commits", "poll-interval",
                "reader-freshness", "max-staleness", "idle-seconds"));
        if (line.positional().equals(List.of("trino-requests"))) {
            TrinoRequestCount.run(line, out);
            return new Totals(0, 0, 0, 0, 0, 0, 0, 0, Map.of());
        }
        if (line.positional().size() != 1 || !List.of("crash", "faults").contains(line.positional().getFirst())) {
            throw new IllegalArgumentException("name the trial: crash or faults (or trino-requests); usage: bin/moraine " + HostedCommands.TRIAL_USAGE + " | " + TrinoRequestCount.USAGE);
        }
        boolean faults = line.positional().getFirst().equals("faults");
        int trials = line.intOption("trials", 10);
        String storeKind = line.option("store").orElse(faults ? "s3" : "file");
        if (!List.of("file", "s3").contains(storeKind) || (faults && storeKind.equals("file"))) {
            throw new IllegalArgumentException("--store takes file or s3 (faults need s3), not '" + storeKind + "'");
        }
        List<Integer> committers = line.option("committers").map(text -> switch (text) {
            case "1" -> List.of(1);
            case "8" -> List.of(8);
            default -> throw new IllegalArgumentException("--committers takes 1 or 8, not '" + text + "'");
        }).orElse(List.of(1, 8));
        int writers = line.intOption("writers", 1);
        if (writers != 1 && writers != 2 || (writers == 2 && faults)) {
            throw new IllegalArgumentException("--writers takes 1 (one JVM, the trial's own commits) or 2 (a JVM through the core's write API and a "
                    + "DuckDB process through ducklake:moraine:, with the writer hand-off; crash trials only), not " + writers);
        }
        long seed = line.option("seed").map(Long::parseLong).orElse(System.nanoTime());
        double faultRate = Double.parseDouble(line.option("fault-rate").orElse("0.05"));
        Duration storeTimeout = line.option(CommandLine.STORE_TIMEOUT).map(text -> line.storeOptions().timeout()).orElse(Duration.ofSeconds(3));
        Path work = line.option("work").map(Path::of).orElse(Files.createTempDirectory("moraine-trial-"));
        Files.createDirectories(work);
        Random random = new Random(seed);
        out.printf("trial %s: %d trials, store %s, %s, seed %d, work %s%n", line.positional().getFirst(), trials, storeKind,
                writers == 2 ? "2 writers (core write API, DuckDB)" : "committers " + committers, seed, work);
        try (TrialStore store = storeKind.equals("s3") ? TrialStore.s3(work) : TrialStore.local(work);
                FaultProxy proxy = faults ? new FaultProxy(store.port(), seed, faultRate, Duration.ofMillis(storeTimeout.toMillis() / 4),
                        storeTimeout.plusSeconds(1)) : null) {
            if (proxy != null) {
                out.println("fault mix: " + proxy.describeMix());
            }
            Path data = Files.createDirectories(work.resolve("data"));
            Files.createDirectories(data.resolve("main/t"));
            String dataPath = data + "/";
            StoreOptions parentOptions = TrialStore.options(store.uri(), Duration.ofSeconds(60), store.endpoint());
            TrialTable.create(store.uri(), parentOptions.withCreateIfMissing(), dataPath);
            TrialChecker checker = new TrialChecker(store.uri(), parentOptions);
            String childEndpoint = proxy != null ? proxy.endpoint() : store.endpoint();
            long started = System.nanoTime();
            int kills = 0;
            long acknowledged = 0;
            long landedUnacknowledged = 0;
            long lost = 0;
            long partial = 0;
            long verifyProblems = 0;
            long childFailures = 0;
            for (int trial = 1; trial <= trials; trial++) {
                long trialStarted = System.nanoTime();
                int trialCommitters = writers == 2 ? 2 : committers.get(trial % committers.size());
                TrialRun.Outcome outcome;
                TrialLog.Contents contents;
                if (writers == 2) {
                    int victim = random.nextInt(2);
                    KillPlan plan = KillPlan.choose(random, TwoWriterRun.phases(victim));
                    List<List<String>> childArgs = new java.util.ArrayList<>();
                    List<Path> logs = new java.util.ArrayList<>();
                    for (int w = 0; w < 2; w++) {
                        Path log = work.resolve("trial-" + trial + "-" + TwoWriterRun.WRITERS.get(w) + ".log");
                        logs.add(log);
                        childArgs.add(List.of(store.uri().toString(), dataPath, log.toString(), String.valueOf(trial * 100_000L + w * 50_000L),
                                String.valueOf(random.nextLong()), w == victim ? plan.phase() : "none", String.valueOf(storeTimeout.toMillis()), childEndpoint));
                    }
                    outcome = TwoWriterRun.run(childArgs, victim, plan, work, "trial-" + trial);
                    List<TrialLog.Contents> read = new java.util.ArrayList<>();
                    for (Path log : logs) {
                        read.add(TrialLog.read(log));
                    }
                    contents = TrialLog.Contents.merge(read);
                }
                else {
                    KillPlan plan = KillPlan.choose(random);
                    Path log = work.resolve("trial-" + trial + ".log");
                    outcome = TrialRun.run(List.of(store.uri().toString(), dataPath, log.toString(), String.valueOf(trialCommitters),
                            String.valueOf(trial * 100_000L), String.valueOf(random.nextLong()), plan.phase(), String.valueOf(storeTimeout.toMillis()), childEndpoint),
                            plan, random, work.resolve("trial-" + trial + ".stderr"));
                    contents = TrialLog.read(log);
                }
                TrialChecker.Result result = checker.check(contents);
                if (outcome.killed()) {
                    kills++;
                }
                else {
                    childFailures++;
                }
                acknowledged += result.acknowledged();
                landedUnacknowledged += result.landedUnacknowledged();
                lost += result.lost();
                partial += result.partial();
                verifyProblems += result.verifyProblems();
                out.printf(Locale.ROOT, "trial %3d/%d: %d %s%s, kill %-34s %4d acknowledged (+%d landed unacknowledged, %d conflicts, %d failed), "
                                + "lost %d, partial %d, verify problems %d, head %d, %.1f s%n",
                        trial, trials, trialCommitters, writers == 2 ? "writer" : "committer", trialCommitters == 1 ? " " : "s", outcome.describe(), result.acknowledged(),
                        result.landedUnacknowledged(), contents.conflicts(), contents.failures().size(), result.lost(), result.partial(),
                        result.verifyProblems(), result.head(), (System.nanoTime() - trialStarted) / 1e9);
                result.problems().stream().limit(20).forEach(problem -> out.println("    " + problem));
                if (!outcome.killed()) {
                    out.println("    the child exited by itself (status " + outcome.exitStatus() + "); its last error output:");
                    outcome.stderrTail().forEach(text -> out.println("      " + text));
                }
                out.flush();
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            Totals totals = new Totals(trials, kills, acknowledged, landedUnacknowledged, lost, partial, verifyProblems, childFailures,
                    proxy == null ? Map.of() : proxy.faultCounts());
            out.printf(Locale.ROOT, "total: %d trials, %d killed, %d acknowledged commits, %d landed unacknowledged, lost %d, partial %d, verify problems %d, "
                    + "%.1f s per trial (%.0f s in all)%n", trials, kills, acknowledged, landedUnacknowledged, lost, partial, verifyProblems, seconds / trials, seconds);
            if (proxy != null) {
                out.println("faults injected: " + proxy.faultCounts() + "; requests by kind: " + proxy.requestCounts());
            }
            out.println(totals.passed() ? "PASS" : "FAIL");
            return totals;
        }
    }
}
