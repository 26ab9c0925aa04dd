package io.moraine.testing;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The differences an engine's write oracle finds between the engine's lake and DuckDB+DuckLake's: each is recorded
 * (and printed) as it is found, so that the workload goes on and one run shows them all; {@link #assertNone()} fails
 * the test at the end with every one.
 */
public final class OracleDifferences
{
    /** A comparison (or a workload step) that may fail. */
    public interface Step
    {
        void run()
                throws Exception;
    }

    private final List<String> found = new ArrayList<>();

    public void add(String message)
    {
        found.add(message);
        System.out.println("DIFFERENCE " + message);
    }

    /** Runs {@code comparison}; its failure is recorded as a difference. */
    public void check(Step comparison)
    {
        try {
            comparison.run();
        }
        catch (AssertionError | Exception e) {
            add(e.getMessage());
        }
    }

    public void assertNone()
    {
        assertThat(found).as("differences from DuckLake:\n" + String.join("\n", found)).isEmpty();
    }
}
