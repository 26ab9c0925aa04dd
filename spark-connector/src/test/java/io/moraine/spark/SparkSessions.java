package io.moraine.spark;

import org.apache.spark.sql.SparkSession;

import java.util.Map;

/** A local Spark for a test class: two threads, no UI, UTC, Java time values, catalog {@code lake} on a moraine store. */
final class SparkSessions
{
    private SparkSessions() {}

    static SparkSession start(String store, Map<String, String> catalogSettings)
    {
        return start(store, catalogSettings, Map.of());
    }

    /** As {@link #start(String, Map)}, with more session settings ({@code spark.hadoop.*} and the like). */
    static SparkSession start(String store, Map<String, String> catalogSettings, Map<String, String> sessionSettings)
    {
        SparkSession.Builder builder = SparkSession.builder()
                .master("local[2]")
                .appName("moraine-spark-test")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.datetime.java8API.enabled", "true")
                .config("spark.sql.catalog.lake", MoraineSparkCatalog.class.getName())
                .config("spark.sql.catalog.lake.store", store);
        catalogSettings.forEach((key, value) -> builder.config("spark.sql.catalog.lake." + key, value));
        sessionSettings.forEach(builder::config);
        return builder.getOrCreate();
    }

    /** Creates an empty lake, a new store whose data path is {@code data}, and returns the store's URI. */
    static String createEmptyLake(java.nio.file.Path store, java.nio.file.Path data)
            throws java.io.IOException
    {
        java.nio.file.Files.createDirectories(data);
        io.moraine.core.store.StoreUri uri = io.moraine.core.store.StoreUri.parse(store.toString());
        try (io.moraine.core.catalog.MoraineCatalog ignored = io.moraine.core.catalog.MoraineCatalog.openOrCreate(uri,
                io.moraine.core.catalog.NewCatalog.bootstrapped(data + "/"), io.moraine.core.store.StoreOptions.DEFAULTS)) {
            // created
        }
        return uri.toString();
    }
}
