package io.moraine.testing;

import io.moraine.core.store.StoreUri;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A DuckDB process with moraine's extension, the store attached as {@code lake} through {@code ducklake:moraine:}: how an
 * engine module's tests (run from the module's directory, beside {@code duckdb-extension}) check that DuckDB reads what the
 * engine wrote, and write on.
 */
public final class DuckDbOverStore
{
    private DuckDbOverStore() {}

    /**
     * The command that runs {@code main} in a JVM on duckdb-extension's class path with arguments {@code first}, the
     * extension file, the extension directory (for DuckLake) and {@code more}.
     */
    static List<String> javaCommand(Class<?> main, String first, String... more)
            throws Exception
    {
        List<String> ours = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        Path extensionModule = Path.of("../duckdb-extension").toAbsolutePath().normalize();
        Path extension = extensionModule.resolve("../duckdb-shim/target/extension/moraine.duckdb_extension").normalize();
        assertThat(extension).as("moraine's DuckDB extension (built by duckdb-shim)").isRegularFile();
        List<String> classpath = new ArrayList<>();
        classpath.add(Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        classpath.add(extensionModule.resolve("target/classes").toString());
        classpath.add(Files.readString(extensionModule.resolve("target/classpath.txt")).trim());
        ours.stream().filter(entry -> entry.contains("duckdb_jdbc")).forEach(classpath::add);
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx512m", "-cp", String.join(File.pathSeparator, classpath),
                main.getName(), first, extension.toString(), DuckDbTesting.extensionDirectory().toAbsolutePath().toString()));
        command.addAll(List.of(more));
        return command;
    }

    /** Runs {@code statements} in a DuckDB process attached to the store and returns its {@code ROW} lines. */
    public static List<String> run(StoreUri store, String... statements)
            throws Exception
    {
        List<String> command = javaCommand(DuckDbLakeSql.class, store.toString());
        command.addAll(List.of(statements));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            output.lines().filter(line -> line.startsWith("ROW ")).forEach(lines::add);
        }
        assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("DuckDB finished within 180 s").isTrue();
        assertThat(process.exitValue()).as("DuckDB's exit status").isZero();
        return lines;
    }
}
