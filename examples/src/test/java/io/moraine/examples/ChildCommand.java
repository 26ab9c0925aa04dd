package io.moraine.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    record Outcome(int status, String output, List<Path> leftFiles) {}

    private ChildCommand() {}

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
        System.out.println("---- child " + String.join(" ", args) + " exited " + child.exitValue() + ":\n" + printed);
        return new Outcome(child.exitValue(), printed, left);
    }

    /** The DuckDB extension, found from the module directory (a test's working directory) as a path that stays valid in the child's. */
    private static Path extension()
    {
        Path built = Path.of("duckdb-shim/target/extension/moraine.duckdb_extension");
        return (Files.isRegularFile(built) ? built : Path.of("..").resolve(built)).toAbsolutePath().normalize();
    }
}
