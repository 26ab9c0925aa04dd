package io.moraine.testing;

import io.moraine.core.store.StoreUri;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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

    /** One DuckDB process for every {@link #run} of this JVM, started at the first (a JVM per call cost seconds each). */
    private static DuckDbSession shared;

    /**
     * Runs {@code statements} in DuckDB with the store attached as {@code lake} for these statements only (attached
     * before the first, detached after the last, as a process of their own would), and returns the rows of the queries
     * among them as {@code ROW <i> v1|v2|...} lines (i: the statement's index; values as DuckDB's driver gives them).
     */
    public static synchronized List<String> run(StoreUri store, String... statements)
            throws Exception
    {
        DuckDbSession duckdb = session();
        duckdb.execute("ATTACH 'ducklake:moraine:" + store + "' AS lake");
        List<String> lines = new ArrayList<>();
        try {
            for (int i = 0; i < statements.length; i++) {
                for (List<String> row : duckdb.queryAsText(statements[i])) {
                    lines.add("ROW " + i + " " + String.join("|", row));
                }
            }
        }
        finally {
            duckdb.execute("DETACH lake");
        }
        return lines;
    }

    private static DuckDbSession session()
            throws Exception
    {
        if (shared == null) {
            DuckDbSession started = DuckDbSession.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                }
                catch (Exception ignored) {
                    // the JVM is ending; the process ends with its input closed
                }
            }));
            shared = started;
        }
        return shared;
    }
}
