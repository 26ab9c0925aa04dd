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
import java.util.Random;
import java.util.concurrent.TimeUnit;

/** Runs one child and kills it with SIGKILL ({@link Process#destroyForcibly()} on Linux) as its {@link KillPlan} says. */
final class TrialRun
{
    private static final long START_TIMEOUT_NANOS = 120_000_000_000L;
    private static final long AIM_TIMEOUT_NANOS = 20_000_000_000L;

    /** How the child ended: killed by the parent (when and where), or by itself. */
    record Outcome(boolean killed, String describe, int exitStatus, List<String> stderrTail) {}

    private TrialRun() {}

    static Outcome run(List<String> childArgs, KillPlan plan, Random random, Path stderr)
            throws Exception
    {
        Process child = new ProcessBuilder(javaCommand(TrialChild.class, childArgs)).redirectError(stderr.toFile()).start();
        try {
            String described = drive(child, plan, random);
            boolean killed = child.isAlive();
            child.destroyForcibly();
            child.waitFor(60, TimeUnit.SECONDS);
            if (killed) {
                return new Outcome(true, described, child.exitValue(), List.of());
            }
            List<String> lines = Files.exists(stderr) ? Files.readAllLines(stderr) : List.of();
            return new Outcome(false, "none (exited by itself)", child.exitValue(), lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        }
        finally {
            child.destroyForcibly();
        }
    }

    /** The command line of a child JVM running {@code main} with this process's class path and its {@code moraine.*} properties (where DuckDB's extensions are). */
    static List<String> javaCommand(Class<?> main, List<String> args)
    {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx1g", "-Duser.timezone=UTC"));
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith("moraine.")).sorted()
                .forEach(name -> command.add("-D" + name + "=" + System.getProperty(name)));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(args);
        return command;
    }

    /** Reads the child's announcements until the plan says kill; returns what the kill was. */
    private static String drive(Process child, KillPlan plan, Random random)
            throws IOException, InterruptedException
    {
        BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        OutputStream answers = child.getOutputStream();
        long started = System.nanoTime();
        String line = readLine(child, lines, started + START_TIMEOUT_NANOS);
        if (line == null || !line.equals("READY")) {
            return "none (the child never got ready)";
        }
        long ready = System.nanoTime();
        int seen = 0;
        int acks = 0;
        long killAt = Long.MAX_VALUE;
        while (true) {
            long deadline = killAt != Long.MAX_VALUE ? killAt : ready + (plan.aimed() ? AIM_TIMEOUT_NANOS : START_TIMEOUT_NANOS);
            line = readLine(child, lines, deadline);
            if (line == null) {
                if (!child.isAlive()) {
                    return "none";
                }
                if (killAt != Long.MAX_VALUE) {
                    child.destroyForcibly();
                    return String.format("random, %d ms after 1st ack", plan.delayMillis());
                }
                child.destroyForcibly();
                return plan.aimed() ? "at " + seen + "/" + plan.occurrence() + " " + plan.phase() + " (timed out)" : "no ack (timed out)";
            }
            if (line.equals("ACK")) {
                acks++;
                if (!plan.aimed() && acks == 1) {
                    killAt = System.nanoTime() + plan.delayMillis() * 1_000_000L;
                }
            }
            else if (line.startsWith("P ")) {
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

    /** The next line, or null at end of stream or once {@code deadline} (System.nanoTime) passed without one. */
    private static String readLine(Process child, BufferedReader lines, long deadline)
            throws IOException, InterruptedException
    {
        while (System.nanoTime() < deadline) {
            if (lines.ready()) {
                return lines.readLine();
            }
            if (!child.isAlive() && !lines.ready()) {
                return lines.readLine();
            }
            Thread.sleep(1);
        }
        return null;
    }
}
