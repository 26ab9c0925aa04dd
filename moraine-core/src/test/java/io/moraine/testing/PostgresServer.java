package io.moraine.testing;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real PostgreSQL server for one test class, started and stopped by {@code build-support/postgres.sh} (which
 * installs Debian's {@code postgresql} package when the machine has none): a throwaway cluster on 127.0.0.1 on a free
 * port, trusting its connections. Register it as a static extension:
 * <pre>{@code @RegisterExtension static final PostgresServer POSTGRES = new PostgresServer();}</pre>
 * The class's tests are skipped, saying why, only when the script cannot install the package (no apt-get, not root);
 * a server that is installed but does not start fails them.
 */
public final class PostgresServer
        implements BeforeAllCallback, AfterAllCallback
{
    /** postgres.sh's exit status when no server is installed and none can be. */
    private static final int CANNOT_INSTALL = 3;

    private Path clusterDirectory;
    private int port;

    @Override
    public void beforeAll(ExtensionContext context)
            throws IOException, InterruptedException
    {
        Path script = script();
        Path log = Files.createTempFile("moraine-postgres-start", ".log");
        Process process = new ProcessBuilder("bash", script.toString(), "start")
                .redirectError(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        // Bounds an apt-get install on a machine without the package; a started server answers in seconds.
        if (!process.waitFor(15, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(script + " start did not finish in 15 minutes; its log: " + Files.readString(log));
        }
        String messages = Files.readString(log).strip();
        Files.delete(log);
        if (process.exitValue() == CANNOT_INSTALL) {
            Assumptions.abort("no PostgreSQL server on this machine and none can be installed: " + messages);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(script + " start failed (exit " + process.exitValue() + "): " + messages);
        }
        Map<String, String> values = new HashMap<>();
        for (String line : output.split("\n")) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                values.put(line.substring(0, equals), line.substring(equals + 1).strip());
            }
        }
        clusterDirectory = Path.of(values.get("dir"));
        port = Integer.parseInt(values.get("port"));
    }

    @Override
    public void afterAll(ExtensionContext context)
            throws IOException, InterruptedException
    {
        if (clusterDirectory == null) {
            return;
        }
        Process process = new ProcessBuilder("bash", script().toString(), "stop", clusterDirectory.toString())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IllegalStateException("stopping PostgreSQL in " + clusterDirectory + " failed: " + output);
        }
        clusterDirectory = null;
    }

    public int port()
    {
        return port;
    }

    /** A libpq connection string for the server's {@code postgres} database as its superuser. */
    public String conninfo()
    {
        if (clusterDirectory == null) {
            throw new IllegalStateException("the PostgreSQL server is not running (register PostgresServer as a static extension)");
        }
        return "dbname=postgres host=127.0.0.1 port=" + port + " user=postgres";
    }

    /** The checkout's build-support/postgres.sh, found from the module directory the tests run in. */
    private static Path script()
    {
        for (Path directory = Path.of("").toAbsolutePath(); directory != null; directory = directory.getParent()) {
            Path script = directory.resolve("build-support/postgres.sh");
            if (Files.isRegularFile(script)) {
                return script;
            }
        }
        throw new IllegalStateException("no build-support/postgres.sh above " + Path.of("").toAbsolutePath() + "; run the tests in the moraine checkout");
    }
}
