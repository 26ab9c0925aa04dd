package io.moraine.duckdb.ext;

import io.moraine.core.catalog.TableKind;
import io.moraine.core.store.StoreUri;
import io.moraine.duckdb.CatalogImporter;
import io.moraine.duckdb.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.DuckLakeOracle.CatalogDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same comparison as {@link StandaloneAttachTest}, from Python's duckdb==1.5.5 (a host without a JVM): the
 * extension starts the JVM itself from MORAINE_JAVA_HOME and MORAINE_CLASSPATH.
 */
class PythonHostTest
{
    private static final int FLUSH_STEP = DuckLakeOracle.WORKLOAD.indexOf("CALL ducklake_flush_inlined_data('lake')");

    @TempDir
    Path temp;

    @Test
    void pythonsDuckDbReadsEveryCatalogAndInlinedTableThroughTheExtension()
            throws Exception
    {
        Path lake = temp.resolve("lake");
        try (DuckLakeOracle oracle = DuckLakeOracle.create(lake, CatalogDatabase.DUCKDB)) {
            for (String step : DuckLakeOracle.WORKLOAD.subList(0, FLUSH_STEP)) {
                oracle.execute(step);
            }
            oracle.detach();
        }
        Path catalogFile = lake.resolve("catalog.ducklake");
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + catalogFile), store, Optional.empty(), CatalogImporter.Progress.SILENT);

        String python = run(temp, new ProcessBuilder("../build-support/python-duckdb.sh")).strip();
        Path script = temp.resolve("python_host.py");
        try (var in = PythonHostTest.class.getResourceAsStream("/python_host.py")) {
            Files.copy(in, script);
        }
        ProcessBuilder host = new ProcessBuilder(python, script.toString(), ExtensionConnections.extension().toString(), catalogFile.toString(),
                store.toString());
        host.environment().put("MORAINE_JAVA_HOME", System.getProperty("java.home"));
        host.environment().put("MORAINE_CLASSPATH", javaSideClassPath());
        String output = run(temp, host);

        Matcher summary = Pattern.compile("python host: tables=(\\d+) inlined=(\\d+) rows=(\\d+)").matcher(output);
        assertThat(summary.find()).as(output).isTrue();
        int inlined = Integer.parseInt(summary.group(2));
        assertThat(inlined).isGreaterThanOrEqualTo(3);
        assertThat(Integer.parseInt(summary.group(1))).isEqualTo(TableKind.values().length + inlined);
        assertThat(Long.parseLong(summary.group(3))).isPositive();
        System.out.println("[python host] " + summary.group());
    }

    /** This module's classes and its runtime dependencies (written by the build to target/classpath.txt). */
    private static String javaSideClassPath()
            throws Exception
    {
        return Path.of("target/classes").toAbsolutePath() + File.pathSeparator
                + Files.readString(Path.of("target/classpath.txt")).strip();
    }

    private static String run(Path directory, ProcessBuilder builder)
            throws Exception
    {
        Path log = Files.createTempFile(directory, "process", ".log");
        Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).as("%s finished", builder.command()).isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("%s exit code; output:%n%s", builder.command(), output).isZero();
        return output;
    }
}
