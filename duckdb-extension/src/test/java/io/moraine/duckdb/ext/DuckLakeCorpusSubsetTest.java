package io.moraine.duckdb.ext;

import io.moraine.testing.DuckDbTesting;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fast subset of DuckLake's own sqllogictest corpus ({@code conformance/make-test-subset.txt}: files that pass on a
 * DuckDB-file catalog) run through moraine by {@code conformance/ducklake_corpus.py} in Python's duckdb==1.5.5, the
 * extension starting its JVM from MORAINE_JAVA_HOME and MORAINE_CLASSPATH. Every listed file must pass. The corpus
 * lives outside the repository ({@code ../shared/ducklake-corpus}, or {@code -Dmoraine.ducklake.corpus=DIR}); without
 * it the test is reported as not run.
 */
class DuckLakeCorpusSubsetTest
{
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern TALLY = Pattern.compile(
            "moraine\\s+(\\d+) files: (\\d+) passed, (\\d+) failed, (\\d+) skipped; (\\d+) records run");

    @TempDir
    Path temp;

    @Test
    void everyListedCorpusFilePassesThroughMoraine()
            throws Exception
    {
        Path corpus = corpus();
        Assumptions.assumeTrue(Files.isDirectory(corpus.resolve("test").resolve("sql")),
                "NOT RUN: DuckLake's test corpus is not at " + corpus + " (set -Dmoraine.ducklake.corpus=DIR to "
                        + "the folder that holds test/sql and data/)");
        Path subset = REPOSITORY.resolve("conformance").resolve("make-test-subset.txt");
        long listed = Files.readAllLines(subset).stream().filter(line -> !line.isBlank() && !line.startsWith("#")).count();

        String python = NonJvmHosts.run(temp, new ProcessBuilder("../build-support/python-duckdb.sh"), true).strip();
        ProcessBuilder runner = NonJvmHosts.withJavaSide(new ProcessBuilder(List.of(python,
                REPOSITORY.resolve("conformance").resolve("ducklake_corpus.py").toString(), "run",
                "--catalogs", "moraine",
                "--files", subset.toString(),
                "--corpus", corpus.toString(),
                "--extension-dir", DuckDbTesting.extensionDirectory().toString(),
                "--moraine-extension", ExtensionConnections.extension().toString(),
                "--jobs", "2",
                // a native crash is reported below and run once more; a second crash or a wrong answer fails
                "--retry-crashed")));
        long started = System.nanoTime();
        Run run = run(runner);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);

        Matcher tally = TALLY.matcher(run.output());
        assertThat(tally.find()).as("the runner's tally; exit %d, output:%n%s", run.exitCode(), run.output()).isTrue();
        long files = Long.parseLong(tally.group(1));
        long passed = Long.parseLong(tally.group(2));
        System.out.printf("[ducklake corpus] %d files, %d records run through moraine in %d s (%d passed, %s failed, %s skipped)%n",
                files, Long.parseLong(tally.group(5)), seconds, passed, tally.group(3), tally.group(4));
        int crashes = run.output().indexOf("crashed, then run again");
        if (crashes >= 0) {
            System.out.println("[ducklake corpus] " + run.output().substring(crashes).strip());
        }
        assertThat(files).as("files run, of %d listed in %s", listed, subset).isEqualTo(listed);
        assertThat(passed)
                .withFailMessage("%d of %d corpus files did not pass through moraine:%n%s", files - passed, files,
                        run.output().substring(tally.end()).strip())
                .isEqualTo(files);
        assertThat(run.exitCode()).as("the runner's exit status; output:%n%s", run.output()).isZero();
    }

    private static Path corpus()
    {
        String configured = System.getProperty("moraine.ducklake.corpus");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        return REPOSITORY.resolve("..").resolve("shared").resolve("ducklake-corpus").normalize();
    }

    private record Run(int exitCode, String output) {}

    /** Runs the driver to its end (at most 20 minutes); its standard output carries the tally and the failures. */
    private Run run(ProcessBuilder builder)
            throws Exception
    {
        Path stdout = Files.createTempFile(temp, "corpus", ".out");
        Path stderr = Files.createTempFile(temp, "corpus", ".err");
        Process process = builder.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!process.waitFor(20, TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("the corpus runner took more than 20 minutes; its progress:\n"
                    + Files.readString(stderr, StandardCharsets.UTF_8));
        }
        String output = Files.readString(stdout, StandardCharsets.UTF_8);
        if (process.exitValue() == 2) {
            throw new AssertionError("the corpus runner refused its arguments:\n" + Files.readString(stderr, StandardCharsets.UTF_8));
        }
        return new Run(process.exitValue(), output);
    }
}
