package io.moraine.examples.spark;

import io.moraine.core.store.StoreUri;

/** The Spark part of {@code make demo}: the demo lake read by a real Spark (spark-submit with the bundle jar), with time travel. */
public final class SparkDemo
{
    static final String TIME_TRAVEL = "SELECT 'now' AS version, count(*) AS orders, sum(amount) AS revenue FROM lake.shop.orders"
            + " UNION ALL SELECT 'VERSION AS OF 3', count(*), sum(amount) FROM lake.shop.orders VERSION AS OF 3";

    private SparkDemo() {}

    public static void run(StoreUri store)
            throws Exception
    {
        System.out.println();
        System.out.println("-- Spark reads the same lake: spark-submit (PyPI's pyspark) with only the moraine bundle jar, catalog 'lake'");
        System.out.println("-- Time travel: the table now and right after the first insert (snapshot 3)");
        System.out.println("bin/moraine spark-sql --store " + store + " \"" + TIME_TRAVEL + "\"");
        try {
            int exit = SparkCommands.run(store.toString(), null, TIME_TRAVEL);
            if (exit != 0) {
                System.out.println("(Spark failed with exit status " + exit + "; its messages are above)");
            }
        }
        catch (SparkSubmit.SparkUnavailableException e) {
            System.out.println("(Spark part skipped: " + e.getMessage() + ")");
        }
    }
}
