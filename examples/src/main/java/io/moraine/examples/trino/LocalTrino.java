package io.moraine.examples.trino;

import io.moraine.core.store.StoreUri;
import io.moraine.trino.MorainePlugin;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;

import java.util.Map;
import java.util.stream.Collectors;

import static io.trino.testing.TestingSession.testSession;

/** A local, single-node Trino server with the moraine plugin and a catalog {@code lake} on one store. */
public final class LocalTrino
        implements AutoCloseable
{
    private final DistributedQueryRunner runner;

    private LocalTrino(DistributedQueryRunner runner)
    {
        this.runner = runner;
    }

    public static LocalTrino start(StoreUri store, int port)
            throws Exception
    {
        return start(store, port, io.moraine.core.store.StoreOptions.DEFAULT_TIMEOUT);
    }

    /** A server whose catalog waits at most {@code storeTimeout} for each open or read of the store. */
    public static LocalTrino start(StoreUri store, int port, java.time.Duration storeTimeout)
            throws Exception
    {
        quietLogging();
        Session session = Session.builder(testSession()).setCatalog("lake").setSchema("main").build();
        DistributedQueryRunner runner = DistributedQueryRunner.builder(session)
                .setWorkerCount(0)
                .addCoordinatorProperty("http-server.http.port", Integer.toString(port))
                .build();
        runner.installPlugin(new MorainePlugin());
        runner.createCatalog("lake", "moraine", Map.of("moraine.store-uri", store.toString(), "moraine.store-timeout", storeTimeout.toMillis() + "ms"));
        return new LocalTrino(runner);
    }

    /** Trino and its libraries log every start-up step at INFO; a command-line tool shows warnings only. */
    public static void quietLogging()
    {
        java.io.PrintStream out = System.out;
        java.io.PrintStream err = System.err;
        io.airlift.log.Logging logging = io.airlift.log.Logging.initialize();
        // Airlift routes System.out and System.err into its log; a command's output must stay on the terminal.
        System.setOut(out);
        System.setErr(err);
        for (String logger : new String[] {"io.trino", "io.airlift", "org.apache.arrow", "org.eclipse.jetty", "Bootstrap", "io.moraine", "org.apache.hadoop"}) {
            logging.setLevel(logger, io.airlift.log.Level.WARN);
        }
    }

    public String jdbcUrl()
    {
        return "jdbc:trino://" + runner.getCoordinator().getBaseUrl().getHost() + ":" + runner.getCoordinator().getBaseUrl().getPort() + "/lake";
    }

    /** Runs one statement and returns its result as CSV with a header line. */
    public String queryCsv(String sql)
    {
        MaterializedResult result = runner.execute(sql);
        StringBuilder csv = new StringBuilder(String.join(",", result.getColumnNames())).append('\n');
        for (MaterializedRow row : result.getMaterializedRows()) {
            csv.append(row.getFields().stream().map(LocalTrino::csvField).collect(Collectors.joining(","))).append('\n');
        }
        return csv.toString();
    }

    private static String csvField(Object value)
    {
        if (value == null) {
            return "";
        }
        String text = value.toString();
        return text.isEmpty() || text.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n') ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }

    @Override
    public void close()
    {
        runner.close();
    }
}
