package io.moraine.launchers.trino;

import io.moraine.cli.CommandLine;
import io.moraine.cli.MoraineDuckDb;
import io.moraine.core.store.StoreUri;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import static io.moraine.cli.LocalDirectories.deleteRecursively;

/**
 * {@code make demo}: DuckDB writes a small lake through {@code ATTACH 'ducklake:moraine:<store>'} (real DuckLake: Parquet
 * files, a delete file, inlined rows, several snapshots; the catalog lives in a moraine store on the local file system),
 * then Trino's own server (a child JVM, the plugin from its plugin directory) serves that store, runs a few queries and
 * writes a table (CREATE TABLE AS, then MERGE) that DuckDB reads back, a real Spark reads the lake once more, Trino's table too,
 * and writes (an append, a MERGE INTO; {@code SparkDemo}) what Trino and DuckDB then read, and the command prints how to
 * connect and keeps serving (unless {@code --once}).
 */
public final class DemoCommand
{
    private static final List<String> LAKE = List.of(
            "CREATE SCHEMA lake.shop",
            "CREATE TABLE lake.shop.orders (id INTEGER, customer VARCHAR, amount DECIMAL(10, 2), placed DATE)",
            "INSERT INTO lake.shop.orders SELECT i, 'customer-' || (i % 50), (i % 997) * 1.25, DATE '2026-01-01' + (i % 300)::INTEGER FROM range(1, 20001) t(i)",
            "DELETE FROM lake.shop.orders WHERE id % 10 = 0",
            "UPDATE lake.shop.orders SET amount = amount * 2 WHERE id < 100",
            "INSERT INTO lake.shop.orders VALUES (30001, 'walk-in', 12.50, DATE '2026-11-29'), (30002, 'walk-in', 7.25, DATE '2026-11-29')",
            "DELETE FROM lake.shop.orders WHERE id IN (5, 7)");

    private static final List<String[]> SHOWCASE = List.of(
            new String[] {"A scan over Parquet files with deletes applied", "SELECT count(*) AS orders, sum(amount) AS revenue FROM lake.shop.orders"},
            new String[] {"Time travel: the table right after the first insert (snapshot 3)",
                    "SELECT count(*) AS orders, sum(amount) AS revenue FROM lake.shop.orders FOR VERSION AS OF 3"},
            new String[] {"Inlined rows: tiny inserts that live in the catalog, not in Parquet",
                    "SELECT id, customer, amount, placed FROM lake.shop.orders WHERE id > 30000 ORDER BY id"},
            new String[] {"Top customers", "SELECT customer, count(*) AS orders, sum(amount) AS total FROM lake.shop.orders GROUP BY customer ORDER BY total DESC LIMIT 5"});

    /** Trino writes: a CREATE TABLE AS (Parquet written by Trino's writer) and a MERGE (an update keeping row ids, an insert). */
    private static final List<String[]> TRINO_WRITES = List.of(
            new String[] {"Trino writes: CREATE TABLE AS (Parquet files, committed through the core)",
                    "CREATE TABLE lake.shop.customer_totals AS SELECT customer, count(*) AS orders, sum(amount) AS total FROM lake.shop.orders GROUP BY customer"},
            new String[] {"Trino writes: MERGE (customer-1 updated in place, a newcomer inserted)",
                    "MERGE INTO lake.shop.customer_totals t USING (VALUES ('customer-1', 1, 99.00), ('newcomer', 1, 5.00)) s(customer, orders, total) "
                            + "ON t.customer = s.customer WHEN MATCHED THEN UPDATE SET orders = t.orders + s.orders, total = t.total + s.total "
                            + "WHEN NOT MATCHED THEN INSERT VALUES (s.customer, s.orders, s.total)"});

    /** What DuckDB and Spark read of Trino's writes. */
    public static final String WRITTEN = "SELECT count(*) AS customers, sum(orders) AS orders, sum(total) AS total FROM lake.shop.customer_totals";

    private DemoCommand() {}

    public static void run(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("once", "port", "dir"));
        Path directory = Path.of(line.option("dir").orElse(Path.of(System.getProperty("java.io.tmpdir"), "moraine-demo").toString()));
        deleteRecursively(directory);
        Files.createDirectories(directory);
        StoreUri store = StoreUri.parse("file://" + directory.resolve("moraine-store"));
        Path dataPath = directory.resolve("data");
        System.out.println("1. Writing a demo lake with DuckDB + DuckLake, its catalog in the moraine store " + store + ", its files in " + dataPath);
        String attach = "ATTACH " + MoraineDuckDb.quote("ducklake:moraine:" + store) + " AS lake (DATA_PATH " + MoraineDuckDb.quote(dataPath + "/") + ")";
        System.out.println("   " + attach);
        long headSnapshot;
        try (Connection connection = MoraineDuckDb.openWithDuckLake(); Statement statement = connection.createStatement()) {
            statement.execute(attach);
            for (String step : LAKE) {
                statement.execute(step);
            }
            try (ResultSet result = statement.executeQuery("SELECT max(snapshot_id) FROM ducklake_snapshots('lake')")) {
                result.next();
                headSnapshot = result.getLong(1);
            }
        }
        System.out.printf("2. DuckDB committed %d snapshots through moraine (head snapshot %d); DuckDB has closed the lake%n", LAKE.size(), headSnapshot);
        System.out.println("3. Starting Trino's server with catalog 'lake' (connector.name=moraine), the plugin loaded from " + PluginDirectory.locate());
        TrinoServerProcess trino = TrinoServerProcess.start(store, line.intOption("port", line.flag("once") ? 0 : 8080));
        System.out.printf("   Trino started in %.1f s%n", trino.startupTime().toMillis() / 1000.0);
        try {
            for (String[] query : SHOWCASE) {
                System.out.println();
                System.out.println("-- " + query[0]);
                System.out.println(query[1] + ";");
                System.out.print(trino.queryCsv(query[1]));
            }
            for (String[] write : TRINO_WRITES) {
                System.out.println();
                System.out.println("-- " + write[0]);
                System.out.println(write[1] + ";");
                System.out.println("rows written: " + trino.executeUpdate(write[1]));
            }
            System.out.println();
            System.out.println("-- DuckDB reads what Trino wrote (a READ_ONLY attach: Trino keeps the store's writer)");
            System.out.println(WRITTEN + ";");
            try (Connection connection = MoraineDuckDb.openWithDuckLake(); Statement statement = connection.createStatement()) {
                statement.execute("ATTACH " + MoraineDuckDb.quote("ducklake:moraine:" + store) + " AS lake (READ_ONLY)");
                try (ResultSet result = statement.executeQuery(WRITTEN)) {
                    System.out.println("customers,orders,total");
                    while (result.next()) {
                        System.out.println(result.getString(1) + "," + result.getString(2) + "," + result.getString(3));
                    }
                }
            }
            if (io.moraine.launchers.spark.SparkDemo.run(store)) {
                System.out.println();
                System.out.println("-- Trino reads what Spark wrote");
                System.out.println(io.moraine.launchers.spark.SparkDemo.SPARK_WROTE + ";");
                System.out.print(trino.queryCsv(io.moraine.launchers.spark.SparkDemo.SPARK_WROTE));
                System.out.println();
                System.out.println("-- DuckDB reads what Spark wrote");
                System.out.println(io.moraine.launchers.spark.SparkDemo.SPARK_WROTE + ";");
                try (Connection connection = MoraineDuckDb.openWithDuckLake(); Statement statement = connection.createStatement()) {
                    statement.execute("ATTACH " + MoraineDuckDb.quote("ducklake:moraine:" + store) + " AS lake (READ_ONLY)");
                    try (ResultSet result = statement.executeQuery(io.moraine.launchers.spark.SparkDemo.SPARK_WROTE)) {
                        System.out.println("source,customer,orders,total");
                        while (result.next()) {
                            System.out.println(result.getString(1) + "," + result.getString(2) + "," + result.getString(3) + "," + result.getString(4));
                        }
                    }
                }
            }
            System.out.println();
            System.out.println("Trino is serving the demo lake: " + trino.jdbcUrl());
            if (line.flag("once")) {
                return;
            }
            System.out.println("Connect with any Trino client (user: any name), e.g. trino --server " + trino.jdbcUrl().replace("jdbc:trino://", "http://")
                    .replace("/lake", "") + " --catalog lake. Ctrl-C stops it.");
            Runtime.getRuntime().addShutdownHook(new Thread(trino::close));
            Thread.currentThread().join();
        }
        finally {
            if (line.flag("once")) {
                trino.close();
            }
        }
    }

}
