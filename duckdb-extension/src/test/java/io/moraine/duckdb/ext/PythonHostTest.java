package io.moraine.duckdb.ext;

import io.moraine.core.catalog.TableKind;
import io.moraine.duckdb.ext.NonJvmHosts.ImportedLake;
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
}
