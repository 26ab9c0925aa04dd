package io.moraine.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@code bin/moraine <args>} as a child JVM (Main on this test's class path) in a fresh working directory under
 * {@code parent}, with {@code environment} added to this one's, and captures everything it prints (standard output
 * and standard error, JVM and library logging included) and every file it leaves in its working directory.
 */
final class ChildCommand
{
    /** A generous limit: the commands' own store timeouts are seconds; a child past this limit is a hang. */
    static final long LIMIT_SECONDS = 60;

    /** Children run at once by {@link #runAll}: most of a failing child's time is spent waiting for its store timeout. */
    static final int CONCURRENT_CHILDREN = 3;

    record Outcome(int status, String output, List<Path> leftFiles) {}

    /** A command and the environment it runs with. */
    record Invocation(Map<String, String> environment, List<String> args) {}

    private ChildCommand() {}

    private static final java.io.PrintStream CONSOLE = new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
            StandardCharsets.UTF_8);

    static Outcome run(Path parent, Map<String, String> environment, String... args)
            throws IOException, InterruptedException
    {
        Path workDirectory = Files.createTempDirectory(parent, "child");
        Path output = parent.resolve(workDirectory.getFileName() + ".out");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-D" + MoraineDuckDb.EXTENSION_PROPERTY + "=" + extension(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDirectory.toFile()).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().putAll(environment);
        // Verbose native logging, should the binding honour it: a credential must not appear there either.
        builder.environment().put("RUST_LOG", "debug");
        Process child = builder.start();
        boolean finished = child.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS);
        if (!finished) {
            child.destroyForcibly().waitFor();
        }
        assertThat(finished).as("the command returned before the %d s limit; it printed:%n%s", LIMIT_SECONDS, Files.readString(output)).isTrue();
        List<Path> left;
        try (var files = Files.walk(workDirectory)) {
            left = files.filter(Files::isRegularFile).toList();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        // To the process's own standard output: System.out may be redirected meanwhile by a test running a command in-process.
        CONSOLE.println("---- child " + String.join(" ", args) + " exited " + child.exitValue() + ":\n" + printed);
        return new Outcome(child.exitValue(), printed, left);
    }

    /**
     * Runs independent {@code invocations} as {@link #CONCURRENT_CHILDREN} children at a time, each as {@link #run} does;
     * the outcomes are in the invocations' order.
     */
    static List<Outcome> runAll(Path parent, List<Invocation> invocations)
            throws IOException, InterruptedException
    {
        ExecutorService children = Executors.newFixedThreadPool(CONCURRENT_CHILDREN);
        try {
            List<Future<Outcome>> running = new ArrayList<>();
            for (Invocation invocation : invocations) {
                running.add(children.submit(() -> run(parent, invocation.environment(), invocation.args().toArray(String[]::new))));
            }
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> child : running) {
                outcomes.add(child.get());
            }
            return outcomes;
        }
        catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
        finally {
            children.shutdownNow();
        }
    }

    /** The DuckDB extension, found from the module directory (a test's working directory) as a path that stays valid in the child's. */
    private static Path extension()
    {
        Path built = Path.of("duckdb-shim/target/extension/moraine.duckdb_extension");
        return (Files.isRegularFile(built) ? built : Path.of("..").resolve(built)).toAbsolutePath().normalize();
    }
}
