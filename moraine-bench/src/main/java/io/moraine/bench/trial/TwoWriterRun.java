package io.moraine.bench.trial;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One trial of {@code trial crash --writers 2}: starts a {@link CoreWriterChild} and a {@link DuckDbWriterChild} on one
 * store, lets them commit interleaved, kills the victim with SIGKILL as its {@link KillPlan} says, then lets the survivor
 * commit {@value #SURVIVOR_ACKS} more times (it must take the store's writer back from the dead one) and kills it too.
 */
final class TwoWriterRun
{
    static final List<String> WRITERS = List.of("core", "duckdb");
    private static final int SURVIVOR_ACKS = 2;
    private static final long START_TIMEOUT_NANOS = 120_000_000_000L;
    private static final long AIM_TIMEOUT_NANOS = 30_000_000_000L;

    private record Line(int writer, String text) {}

    private TwoWriterRun() {}

    /** The phases writer {@code writer} announces. */
    static List<String> phases(int writer)
    {
        return writer == 0 ? CoreWriterChild.PHASES : DuckDbWriterChild.PHASES;
    }

    /**
     * Runs the trial; {@code childArgs.get(w)} are writer {@code w}'s arguments, whose aimed phase must be the plan's for
     * the victim and {@code none} for the other. Returns the outcome of the victim's kill.
     */
    static TrialRun.Outcome run(List<List<String>> childArgs, int victim, KillPlan plan, Path work, String trialName)
            throws Exception
    {
        List<Process> children = new ArrayList<>();
        BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
        try {
            for (int w = 0; w < 2; w++) {
                Class<?> main = w == 0 ? CoreWriterChild.class : DuckDbWriterChild.class;
                Process child = new ProcessBuilder(TrialRun.javaCommand(main, childArgs.get(w)))
                        .redirectError(work.resolve(trialName + "-" + WRITERS.get(w) + ".stderr").toFile()).start();
                children.add(child);
                int writer = w;
                Thread.ofPlatform().daemon().start(() -> {
                    try (BufferedReader reader = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                        String text;
                        while ((text = reader.readLine()) != null) {
                            lines.add(new Line(writer, text));
                        }
                    }
                    catch (IOException e) {
                        // The child died.
                    }
                    lines.add(new Line(writer, null));
                });
            }
            String described = drive(children, lines, victim, plan);
            Process killed = children.get(victim);
            boolean wasKilled = !described.startsWith("none");
            killed.destroyForcibly();
            killed.waitFor(60, TimeUnit.SECONDS);
            lines.removeIf(line -> line.writer() == 1 - victim && line.text() != null);
            String survivor = awaitSurvivor(children.get(1 - victim), lines, 1 - victim);
            if (wasKilled) {
                return new TrialRun.Outcome(true, WRITERS.get(victim) + " " + described + "; " + survivor, killed.exitValue(), List.of());
            }
            Path stderr = work.resolve(trialName + "-" + WRITERS.get(victim) + ".stderr");
            List<String> tail = Files.exists(stderr) ? Files.readAllLines(stderr) : List.of();
            return new TrialRun.Outcome(false, WRITERS.get(victim) + " " + described, killed.exitValue(), tail.subList(Math.max(0, tail.size() - 15), tail.size()));
        }
        finally {
            for (Process child : children) {
                child.destroyForcibly();
                child.waitFor(60, TimeUnit.SECONDS);
            }
        }
    }

    /** Waits for both READY lines, then follows the victim's announcements until the plan says kill. */
    private static String drive(List<Process> children, BlockingQueue<Line> lines, int victim, KillPlan plan)
            throws InterruptedException
    {
        long started = System.nanoTime();
        int ready = 0;
        while (ready < 2) {
            Line line = lines.poll(Math.max(1, started + START_TIMEOUT_NANOS - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null || line.text() == null) {
                return "none (" + (line == null ? "a writer never got ready" : WRITERS.get(line.writer()) + " exited before it was ready") + ")";
            }
            if (line.text().equals("READY")) {
                ready++;
            }
        }
        children.forEach(writer -> answer(writer.getOutputStream()));
        Process child = children.get(victim);
        OutputStream answers = child.getOutputStream();
        long readyAt = System.nanoTime();
        int seen = 0;
        long killAt = Long.MAX_VALUE;
        while (true) {
            long deadline = killAt != Long.MAX_VALUE ? killAt : readyAt + (plan.aimed() ? AIM_TIMEOUT_NANOS : START_TIMEOUT_NANOS);
            Line line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                if (killAt != Long.MAX_VALUE) {
                    child.destroyForcibly();
                    return String.format("random, %d ms after its 1st ack", plan.delayMillis());
                }
                child.destroyForcibly();
                return plan.aimed() ? "at " + seen + "/" + plan.occurrence() + " " + plan.phase() + " (timed out)" : "no ack (timed out)";
            }
            if (line.text() == null) {
                if (line.writer() == victim) {
                    return "none (exited by itself)";
                }
                continue;
            }
            if (line.writer() != victim) {
                continue;
            }
            if (line.text().equals("ACK") && !plan.aimed() && killAt == Long.MAX_VALUE) {
                killAt = System.nanoTime() + plan.delayMillis() * 1_000_000L;
            }
            else if (line.text().startsWith("P ")) {
                seen++;
                if (seen == plan.occurrence()) {
                    if (plan.held()) {
                        child.destroyForcibly();
                        return "held at " + plan.phase() + " #" + seen;
                    }
                    answer(answers);
                    Thread.sleep(plan.delayMillis());
                    child.destroyForcibly();
                    return plan.delayMillis() + " ms after " + plan.phase() + " #" + seen;
                }
                answer(answers);
            }
        }
    }

    /** Lets the survivor commit a few more times after the victim died; returns what it did. */
    private static String awaitSurvivor(Process survivor, BlockingQueue<Line> lines, int writer)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + AIM_TIMEOUT_NANOS;
        int acks = 0;
        while (acks < SURVIVOR_ACKS) {
            Line line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                return WRITERS.get(writer) + " committed " + acks + " times after (timed out)";
            }
            if (line.writer() == writer && line.text() == null) {
                return WRITERS.get(writer) + " exited after " + acks + " commits";
            }
            if (line.writer() == writer && "ACK".equals(line.text())) {
                acks++;
            }
        }
        survivor.destroyForcibly();
        return WRITERS.get(writer) + " committed " + acks + " times after";
    }

    private static void answer(OutputStream answers)
    {
        try {
            answers.write("go\n".getBytes(StandardCharsets.UTF_8));
            answers.flush();
        }
        catch (IOException e) {
            // The child died meanwhile.
        }
    }
}
