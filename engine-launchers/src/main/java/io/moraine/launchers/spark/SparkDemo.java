package io.moraine.launchers.spark;

import io.moraine.core.store.StoreUri;

/**
 * The Spark part of {@code make demo}: the demo lake read by a real Spark (spark-submit with the bundle jar), with time
 * travel and the change feed, then written by it (an append to DuckDB's table, a MERGE INTO Trino's), which
 * {@code DemoCommand} shows DuckDB and Trino reading.
 */
public final class SparkDemo
{
    static final String TIME_TRAVEL = "SELECT 'now' AS version, count(*) AS orders, sum(amount) AS revenue FROM lake.shop.orders"
            + " UNION ALL SELECT 'VERSION AS OF 3', count(*), sum(amount) FROM lake.shop.orders VERSION AS OF 3";

    static final String CHANGE_FEED = "SELECT _commit_version, _change_type, count(*) AS rows FROM lake.shop.orders"
            + " CHANGES FROM VERSION 5 TO VERSION 7 WITH (computeUpdates = 'true') GROUP BY 1, 2 ORDER BY 1, 2";

    /** Spark writes: an append to the table DuckDB wrote (small: inlined in the catalog). */
    static final String APPEND = "INSERT INTO lake.shop.orders VALUES (40001, 'spark-shop', 20.00, DATE'2026-12-01'), (40002, 'spark-shop', 30.00, DATE'2026-12-02')";

    /** Spark writes: a MERGE INTO the table Trino wrote (customer-2 updated in place keeping its row id, a newcomer inserted). */
    static final String MERGE = "MERGE INTO lake.shop.customer_totals t USING (SELECT 'customer-2' AS customer, 1L AS orders, CAST(10.00 AS DECIMAL(38, 2)) AS total "
            + "UNION ALL SELECT 'spark-shop', 2L, CAST(50.00 AS DECIMAL(38, 2))) s ON t.customer = s.customer "
            + "WHEN MATCHED THEN UPDATE SET orders = t.orders + s.orders, total = t.total + s.total "
            + "WHEN NOT MATCHED THEN INSERT (customer, orders, total) VALUES (s.customer, s.orders, s.total)";

    /** What DuckDB and Trino read of Spark's writes. */
    public static final String SPARK_WROTE = "SELECT 'orders' AS source, customer, count(*) AS orders, sum(amount) AS total FROM lake.shop.orders "
            + "WHERE customer = 'spark-shop' GROUP BY customer UNION ALL SELECT 'customer_totals', customer, orders, total FROM lake.shop.customer_totals "
            + "WHERE customer IN ('customer-2', 'spark-shop') ORDER BY 1, 2";

    private SparkDemo() {}

    /** Runs the Spark steps; false when Spark was not available (its writes then did not happen). */
    public static boolean run(StoreUri store)
            throws Exception
    {
        System.out.println();
        System.out.println("-- Spark reads the same lake: spark-submit (PyPI's pyspark) with only the moraine bundle jar, catalog 'lake'");
        try {
            runStep(store, "Time travel: the table now and right after the first insert (snapshot 3)", TIME_TRAVEL);
            runStep(store, "Change feed of snapshots 5 to 7: the UPDATE as pre/post images, the inlined INSERT, the DELETE", CHANGE_FEED);
            runStep(store, "The table Trino wrote (CREATE TABLE AS, then MERGE)", io.moraine.launchers.trino.DemoCommand.WRITTEN);
            runStep(store, "Spark writes: INSERT INTO DuckDB's table (two rows, inlined in the catalog: no Parquet file)", APPEND);
            runStep(store, "Spark writes: MERGE INTO Trino's table (customer-2 updated in place, a newcomer inserted; one commit)", MERGE);
            return true;
        }
        catch (SparkSubmit.SparkUnavailableException e) {
            System.out.println("(Spark part skipped: " + e.getMessage() + ")");
            return false;
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
