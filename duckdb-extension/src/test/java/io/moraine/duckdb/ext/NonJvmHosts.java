package io.moraine.duckdb.ext;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.DuckLakeOracle.CatalogDatabase;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** What the tests of hosts without a JVM (Python, DuckDB's shell) share: the lake they read and how they run. */
final class NonJvmHosts
{
    private NonJvmHosts() {}

    /** The oracle workload up to its flush (inlined rows and deletes live) in a DuckDB-file catalog, and its import. */
    record ImportedLake(Path catalogFile, StoreUri store) {}

    static ImportedLake importWorkloadBeforeFlush(Path temp)
            throws Exception
    {
        Path lake = temp.resolve("lake");
        try (DuckLakeOracle oracle = DuckLakeOracle.create(lake, CatalogDatabase.DUCKDB)) {
            oracle.run(DuckLakeOracle.WORKLOAD_BEFORE_FLUSH);
            oracle.detach();
        }
        Path catalogFile = lake.resolve("catalog.ducklake");
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + catalogFile), store, Optional.empty(), CatalogImporter.Progress.SILENT);
        return new ImportedLake(catalogFile, store);
    }

    /** The settings from which the extension starts a JVM in a host that has none. */
    static ProcessBuilder withJavaSide(ProcessBuilder host)
            throws Exception
    {
        host.environment().put("MORAINE_JAVA_HOME", System.getProperty("java.home"));
        host.environment().put("MORAINE_CLASSPATH", javaSideClasspath());
        return host;
    }

    /** The class path of the extension's Java side as built in this module (its classes and its dependencies). */
    static String javaSideClasspath()
            throws Exception
    {
        return Path.of("target/classes").toAbsolutePath() + File.pathSeparator + Files.readString(Path.of("target/classpath.txt")).strip();
    }

    /** Runs a process to its end (at most ten minutes) and returns its output; asserts its exit code. */
    static String run(Path directory, ProcessBuilder builder, boolean mustSucceed)
            throws Exception
    {
        Path log = Files.createTempFile(directory, "process", ".log");
        Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).as("%s finished", builder.command()).isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (mustSucceed) {
            assertThat(process.exitValue()).as("%s exit code; output:%n%s", builder.command(), output).isZero();
        }
        else {
            assertThat(process.exitValue()).as("%s should fail; output:%n%s", builder.command(), output).isNotZero();
        }
        return output;
    }
}
