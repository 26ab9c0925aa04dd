package io.moraine.launchers.spark;

import io.moraine.core.store.StoreUri;

/**
 * The Spark part of {@code make demo}: the demo lake read by a real Spark (spark-submit with the bundle jar), with time
 * travel and the change feed.
 */
public final class SparkDemo
{
    static final String TIME_TRAVEL = "SELECT 'now' AS version, count(*) AS orders, sum(amount) AS revenue FROM lake.shop.orders"
            + " UNION ALL SELECT 'VERSION AS OF 3', count(*), sum(amount) FROM lake.shop.orders VERSION AS OF 3";

    static final String CHANGE_FEED = "SELECT _commit_version, _change_type, count(*) AS rows FROM lake.shop.orders"
            + " CHANGES FROM VERSION 5 TO VERSION 7 WITH (computeUpdates = 'true') GROUP BY 1, 2 ORDER BY 1, 2";

    private SparkDemo() {}

    public static void run(StoreUri store)
            throws Exception
    {
        System.out.println();
        System.out.println("-- Spark reads the same lake: spark-submit (PyPI's pyspark) with only the moraine bundle jar, catalog 'lake'");
        try {
            runStep(store, "Time travel: the table now and right after the first insert (snapshot 3)", TIME_TRAVEL);
            runStep(store, "Change feed of snapshots 5 to 7: the UPDATE as pre/post images, the inlined INSERT, the DELETE", CHANGE_FEED);
            runStep(store, "The table Trino wrote (CREATE TABLE AS, then MERGE)", io.moraine.launchers.trino.DemoCommand.WRITTEN);
        }
        catch (SparkSubmit.SparkUnavailableException e) {
            System.out.println("(Spark part skipped: " + e.getMessage() + ")");
        }
    }

    private static void runStep(StoreUri store, String title, String sql)
            throws Exception
    {
        System.out.println("-- " + title);
        System.out.println("bin/moraine spark-sql --store " + store + " \"" + sql + "\"");
        int exit = SparkCommands.run(store.toString(), null, sql);
        if (exit != 0) {
            System.out.println("(Spark failed with exit status " + exit + "; its messages are above)");
        }
    }
}
