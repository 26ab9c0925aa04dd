package io.moraine.trino;

import io.moraine.testing.DuckDbTesting;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DuckDB commits through {@code ducklake:moraine:} (a writer in another JVM, {@link DuckDbLakeWriter}) while Trino
 * queries the lake over and over: every answer Trino gives for the newest state is one DuckDB committed, and Trino at
 * each snapshot DuckDB reported ({@code FOR VERSION AS OF}) answers what DuckDB read right after that commit. Trino
 * opens the store read-only, so it never fences the writer (which would fail its next commit).
 */
class TestMoraineReadsWhileDuckDbWrites
{
    private static final int BATCHES = 30;
    private static final String AGGREGATES = "SELECT count(*), sum(batch), sum(length(label)) FROM lake.main.items";

    @TempDir
    Path temp;

    @Test
    void trinoReadingWhileDuckDbCommitsAgreesWithDuckDbAtEverySnapshotItReads()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = Files.createDirectories(temp.resolve("data"));
        Process writer = startWriter(store, data);
        Map<Long, String> committed = new ConcurrentHashMap<>();
        BufferedReader output = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8));
        readCommit(output, committed);
        Thread reader = Thread.ofPlatform().start(() -> {
            try {
                while (readCommit(output, committed)) {
                    // collected
                }
            }
            catch (Exception ignored) {
                // the exit status below says what went wrong
            }
        });

        Session session = testSessionBuilder().setCatalog("lake").setSchema("main").build();
        List<String> newest = new ArrayList<>();
        long versionComparisons = 0;
        long whileWriting = 0;
        try (QueryRunner trino = DistributedQueryRunner.builder(session).build()) {
            trino.installPlugin(new MorainePlugin());
            trino.createCatalog("lake", "moraine", Map.of("moraine.store-uri", store.toString()));
            newest.add(aggregates(trino, AGGREGATES));
            // Trino is up and has read the first commit: the writer goes on.
            writer.getOutputStream().write('\n');
            writer.getOutputStream().flush();
            while (writer.isAlive() || reader.isAlive()) {
                newest.add(aggregates(trino, AGGREGATES));
                whileWriting += writer.isAlive() ? 1 : 0;
                long snapshot = committed.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
                assertThat(aggregates(trino, AGGREGATES.replace("lake.main.items", "lake.main.items FOR VERSION AS OF " + snapshot)))
                        .as("Trino at snapshot %s", snapshot).isEqualTo(committed.get(snapshot));
                versionComparisons++;
            }
            assertThat(writer.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(writer.exitValue()).as("the DuckDB writer's exit status").isZero();
            assertThat(committed).hasSize(BATCHES);

            Set<String> committedAnswers = new HashSet<>(committed.values());
            for (String answer : newest) {
                assertThat(committedAnswers).as("Trino's newest state %s is one DuckDB committed", answer).contains(answer);
            }
            for (Map.Entry<Long, String> commit : committed.entrySet()) {
                assertThat(aggregates(trino, AGGREGATES.replace("lake.main.items", "lake.main.items FOR VERSION AS OF " + commit.getKey())))
                        .as("Trino at snapshot %s", commit.getKey()).isEqualTo(commit.getValue());
                versionComparisons++;
            }
            // The last state row by row, all columns, against what DuckDB inserted.
            MaterializedResult rows = trino.execute("SELECT batch, label FROM lake.main.items");
            assertThat(rows.getMaterializedRows().stream().map(row -> row.getField(0) + "|" + row.getField(1)).sorted().toList())
                    .isEqualTo(expectedRows());
        }
        assertThat(whileWriting).as("Trino queries while DuckDB was committing").isPositive();
        assertThat(versionComparisons).isGreaterThan(BATCHES);
        System.out.printf("TestMoraineReadsWhileDuckDbWrites: %d commits, %d newest-state answers (%d while writing, %d distinct), %d FOR VERSION AS OF comparisons%n",
                committed.size(), newest.size(), whileWriting, new HashSet<>(newest).size(), versionComparisons);
    }

    private static List<String> expectedRows()
    {
        List<String> rows = new ArrayList<>();
        for (int batch = 0; batch < BATCHES; batch++) {
            for (int i = 0; i < DuckDbLakeWriter.batchSize(batch); i++) {
                rows.add(batch + "|b" + batch + "-" + i);
            }
        }
        return rows.stream().sorted().toList();
    }

    private static String aggregates(QueryRunner trino, String sql)
    {
        MaterializedRow row = trino.execute(sql).getMaterializedRows().getFirst();
        return row.getField(0) + " " + row.getField(1) + " " + row.getField(2);
    }

    /** Reads one {@code COMMIT} line into {@code committed}; false at the end of the writer's output. */
    private static boolean readCommit(BufferedReader output, Map<Long, String> committed)
            throws Exception
    {
        String line;
        while ((line = output.readLine()) != null) {
            if (line.startsWith("COMMIT ")) {
                String[] fields = line.split(" ", 3);
                committed.put(Long.parseLong(fields[1]), fields[2]);
                return true;
            }
        }
        return false;
    }

    /** Starts {@link DuckDbLakeWriter} on duckdb-extension's class path with duckdb_jdbc from this one. */
    private Process startWriter(Path store, Path data)
            throws Exception
    {
        List<String> ours = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        // The sibling module's own build output (the reactor puts its classes or its jar on this class path, depending on the phase).
        Path extensionModule = Path.of("../duckdb-extension").toAbsolutePath().normalize();
        Path extensionClasses = extensionModule.resolve("target/classes");
        Path classpathFile = extensionModule.resolve("target/classpath.txt");
        Path extension = extensionModule.resolve("../duckdb-shim/target/extension/moraine.duckdb_extension").normalize();
        assertThat(extensionClasses).as("duckdb-extension's classes (build it first: mvn -pl trino-plugin -am test)").isDirectory();
        assertThat(classpathFile).as("duckdb-extension's class path (written by its build)").isRegularFile();
        assertThat(extension).as("moraine's DuckDB extension (built by duckdb-shim)").isRegularFile();
        List<String> classpath = new ArrayList<>();
        classpath.add(Path.of(DuckDbLakeWriter.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        classpath.add(extensionClasses.toString());
        classpath.add(Files.readString(classpathFile).trim());
        ours.stream().filter(entry -> entry.contains("duckdb_jdbc")).forEach(classpath::add);
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = List.of(java, "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx512m", "-cp", String.join(File.pathSeparator, classpath),
                DuckDbLakeWriter.class.getName(), store.toString(), data.toString(), extension.toString(),
                DuckDbTesting.extensionDirectory().toAbsolutePath().toString(), Integer.toString(BATCHES));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
