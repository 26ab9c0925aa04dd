package io.moraine.launchers.trino;

import io.airlift.log.Level;
import io.airlift.log.Logging;

import java.io.PrintStream;

/** The benchmarks run Trino's test harness in their own JVM: its start-up steps log at INFO, a command-line tool shows warnings only. */
public final class TrinoLogging
{
    private TrinoLogging() {}

    public static void quiet()
    {
        PrintStream out = System.out;
        PrintStream err = System.err;
        Logging logging = Logging.initialize();
        // Airlift routes System.out and System.err into its log; a command's output must stay on the terminal.
        System.setOut(out);
        System.setErr(err);
        for (String logger : new String[] {"io.trino", "io.airlift", "org.apache.arrow", "org.eclipse.jetty", "Bootstrap", "io.moraine", "org.apache.hadoop"}) {
            logging.setLevel(logger, Level.WARN);
        }
    }
}
