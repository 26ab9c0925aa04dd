package io.moraine.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The class path bin/moraine runs the commands with (target/classes and target/classpath.txt, the module's run-time
 * dependencies), not the tests' wider one: it holds no Trino engine, no S3Proxy and no test jar, and a DuckDB lake
 * written through the moraine extension, read back by cat and checked by verify, works on it alone.
 */
class RuntimeClassPathTest
{
    /** Engine, harness and test artifacts that stay in engine-launchers and moraine-bench. */
    private static final List<String> FORBIDDEN = List.of("trino-main-", "trino-testing", "trino-jdbc", "trino-hive", "/trino-plugin/", "trino-plugin-0.",
            "spark-connector", "/org/apache/spark/", "s3proxy", "-tests.jar", "test-classes", "junit", "assertj");

    @TempDir
    Path temp;

    @Test
    void holdsNoEngineAndNoTestJar()
            throws Exception
    {
        List<String> entries = Arrays.asList(runtimeClassPath().split(File.pathSeparator));
        assertThat(entries).hasSizeGreaterThan(10);
        for (String entry : entries) {
            assertThat(FORBIDDEN).as("class path entry %s", entry).noneMatch(entry.replace('\\', '/')::contains);
        }
    }

    @Test
    void duckdbCatAndVerifyRunOnIt()
            throws Exception
    {
        String store = temp.resolve("store").toString();
        Outcome written = run("duckdb", "--store", store, "--data-path", temp.resolve("data") + "/",
                "CREATE TABLE lake.main.t (a INTEGER, s VARCHAR); INSERT INTO lake.main.t VALUES (1, 'x'), (2, 'y'); SELECT count(*) AS n FROM lake.main.t");
        assertThat(written.status()).as(written.output()).isZero();
        assertThat(written.output()).contains("n\n2\n");
        Outcome read = run("cat", "--store", store, "main.t");
        assertThat(read.status()).as(read.output()).isZero();
        assertThat(read.output()).contains("a,s\n").contains("1,x\n").contains("2,y\n");
        Outcome verified = run("verify", "--store", store);
        assertThat(verified.status()).as(verified.output()).isZero();
    }

    private record Outcome(int status, String output) {}

    private Outcome run(String... args)
            throws Exception
    {
        Path output = Files.createTempFile(temp, "child", ".out");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-D" + MoraineDuckDb.EXTENSION_PROPERTY + "=" + extension(),
                "-cp", Path.of("target/classes").toAbsolutePath() + File.pathSeparator + runtimeClassPath(), Main.class.getName()));
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).directory(temp.toFile()).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean finished = child.waitFor(ChildCommand.LIMIT_SECONDS, TimeUnit.SECONDS);
        if (!finished) {
            child.destroyForcibly().waitFor();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(finished).as("%s returned within %d s; it printed:%n%s", List.of(args), ChildCommand.LIMIT_SECONDS, printed).isTrue();
        return new Outcome(child.exitValue(), printed);
    }

    /** Written by the build (maven-dependency-plugin, compile phase) for bin/moraine; the tests run from the module directory. */
    private static String runtimeClassPath()
            throws Exception
    {
        return Files.readString(Path.of("target/classpath.txt")).strip();
    }

    private static Path extension()
    {
        Path built = Path.of("duckdb-shim/target/extension/moraine.duckdb_extension");
        return (Files.isRegularFile(built) ? built : Path.of("..").resolve(built)).toAbsolutePath().normalize();
    }
}
