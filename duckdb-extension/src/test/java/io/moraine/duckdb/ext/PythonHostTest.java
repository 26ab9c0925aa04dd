package io.moraine.duckdb.ext;

import io.moraine.core.row.TableKind;
import io.moraine.duckdb.ext.NonJvmHosts.ImportedLake;
import io.moraine.testing.DuckDbTesting;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same comparison as {@link StandaloneAttachTest}, from Python's duckdb==1.5.5 (a host without a JVM): the
 * extension starts the JVM itself from MORAINE_JAVA_HOME and MORAINE_CLASSPATH.
 */
class PythonHostTest
{
    @TempDir
    Path temp;

    @Test
    void pythonsDuckDbReadsEveryCatalogAndInlinedTableThroughTheExtension()
            throws Exception
    {
        ImportedLake lake = NonJvmHosts.importWorkloadBeforeFlush(temp);
        String python = NonJvmHosts.run(temp, new ProcessBuilder("../build-support/python-duckdb.sh"), true).strip();
        Path script = temp.resolve("python_host.py");
        try (var in = PythonHostTest.class.getResourceAsStream("/python_host.py")) {
            Files.copy(in, script);
        }
        ProcessBuilder host = new ProcessBuilder(python, script.toString(), ExtensionConnections.extension().toString(),
                lake.catalogFile().toString(), lake.store().toString());
        String output = NonJvmHosts.run(temp, NonJvmHosts.withJavaSide(host), true);

        Matcher summary = Pattern.compile("python host: tables=(\\d+) inlined=(\\d+) rows=(\\d+)").matcher(output);
        assertThat(summary.find()).as(output).isTrue();
        int inlined = Integer.parseInt(summary.group(2));
        assertThat(inlined).isGreaterThanOrEqualTo(3);
        assertThat(Integer.parseInt(summary.group(1))).isEqualTo(TableKind.values().length + inlined);
        assertThat(Long.parseLong(summary.group(3))).isPositive();
        System.out.println("[python host] " + summary.group());
    }

    /**
     * The README's Python example of a lake through DuckLake (the same block as docs/duckdb.md's), run as written but
     * for its paths: the JVM settings come from plain SET (no MORAINE_* environment), DuckDB loads DuckLake itself,
     * the new lake takes its default data path, and nothing SLF4J prints reaches stderr.
     */
    @Test
    void theReadmesDuckLakeExampleRunsWithSetAndPrintsNoSlf4jLine()
            throws Exception
    {
        String example = pythonBlock(Files.readString(Path.of("../README.md")), "ducklake:moraine:");
        assertThat(Files.readString(Path.of("../docs/duckdb.md"))).as("docs/duckdb.md shows the README's example").contains(example);
        Path store = temp.resolve("lake-catalog");
        String script = example.replace("/path/to/moraine.duckdb_extension", ExtensionConnections.extension().toString())
                .replace("/usr/lib/jvm/temurin-25", System.getProperty("java.home"))
                .replace("/path/to/moraine-duckdb.jar", NonJvmHosts.javaSideClasspath())
                .replace("/var/lib/lake-catalog", store.toString());
        Path scriptFile = temp.resolve("ducklake_example.py");
        Files.writeString(scriptFile, script);
        // DuckDB finds DuckLake in its default extension directory, ~/.duckdb/extensions, without a download.
        Path home = Files.createDirectories(temp.resolve("home"));
        Files.createDirectories(home.resolve(".duckdb"));
        Path extensions = Files.createSymbolicLink(home.resolve(".duckdb/extensions"), DuckDbTesting.extensionDirectory());
        String output;
        try {
            String python = NonJvmHosts.run(temp, new ProcessBuilder("../build-support/python-duckdb.sh"), true).strip();
            ProcessBuilder host = new ProcessBuilder(python, scriptFile.toString());
            host.environment().remove("MORAINE_JAVA_HOME");
            host.environment().remove("MORAINE_CLASSPATH");
            host.environment().put("HOME", home.toString());
            output = NonJvmHosts.run(temp, host, true);
        }
        finally {
            Files.delete(extensions);
        }

        assertThat(output).contains("[(1, 'open')]").doesNotContain("SLF4J");
        assertThat(Files.isDirectory(store)).isTrue();
        System.out.println("[python host] the README's DuckLake example: " + output.strip());
    }

    /** The first ```python block of {@code markdown} that contains {@code marker}, without its fences. */
    private static String pythonBlock(String markdown, String marker)
    {
        Matcher blocks = Pattern.compile("```python\n(.*?)```", Pattern.DOTALL).matcher(markdown);
        while (blocks.find()) {
            if (blocks.group(1).contains(marker)) {
                return blocks.group(1);
            }
        }
        throw new AssertionError("no ```python block with " + marker);
    }
}
