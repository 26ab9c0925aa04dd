package io.moraine.trino;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static io.trino.testing.TestingSession.testSession;

/** A real Trino with catalog {@code lake} on a moraine store imported from a DuckLake oracle lake. */
final class MoraineQueryRunner
{
    private MoraineQueryRunner() {}

    /** Imports the oracle's catalog (as it is now) into a store under {@code directory} and serves it from Trino. */
    static QueryRunner create(DuckLakeOracle oracle, Path directory, String defaultSchema)
            throws Exception
    {
        return create(oracle, directory, defaultSchema, 0);
    }

    /** As {@link #create(DuckLakeOracle, Path, String)}, with {@code workerCount} workers besides the coordinator. */
    static QueryRunner create(DuckLakeOracle oracle, Path directory, String defaultSchema, int workerCount)
            throws Exception
    {
        return create(oracle, directory, StoreUri.parse(directory.resolve("store").toString()), Optional.empty(), Map.of(), defaultSchema, workerCount);
    }

    /**
     * Imports the oracle's catalog into {@code store} (with {@code dataPath} replacing the lake's data_path when given)
     * and serves it as catalog {@code lake} with the extra catalog properties.
     */
    static QueryRunner create(DuckLakeOracle oracle, Path directory, StoreUri store, Optional<String> dataPath, Map<String, String> catalogProperties,
            String defaultSchema, int workerCount)
            throws Exception
    {
        String copy = oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"));
        CatalogImporter.importCatalog(DuckLakeSource.parse(copy), store, dataPath, CatalogImporter.Progress.SILENT);
        return onStore(store, catalogProperties, defaultSchema, workerCount);
    }

    /** Serves an existing moraine store as catalog {@code lake} with the extra catalog properties. */
    static QueryRunner onStore(StoreUri store, Map<String, String> catalogProperties, String defaultSchema, int workerCount)
            throws Exception
    {
        return onStore(store, catalogProperties, Map.of(), defaultSchema, workerCount);
    }

    /** As {@link #onStore(StoreUri, Map, String, int)}, the default session with {@code systemProperties} set. */
    static QueryRunner onStore(StoreUri store, Map<String, String> catalogProperties, Map<String, String> systemProperties, String defaultSchema,
            int workerCount)
            throws Exception
    {
        Session.SessionBuilder builder = Session.builder(testSession()).setCatalog("lake").setSchema(defaultSchema);
        systemProperties.forEach(builder::setSystemProperty);
        Session session = builder.build();
        QueryRunner trino = DistributedQueryRunner.builder(session).setWorkerCount(workerCount).build();
        try {
            trino.installPlugin(new MorainePlugin());
            Map<String, String> properties = new HashMap<>(catalogProperties);
            properties.put("moraine.store-uri", store.toString());
            trino.createCatalog("lake", "moraine", properties);
        }
        catch (RuntimeException e) {
            trino.close();
            throw e;
        }
        return trino;
    }

    /** Closes what a test class opened; either may be null when its setup failed part way. */
    static void close(QueryRunner trino, DuckLakeOracle oracle)
            throws Exception
    {
        try (oracle) {
            if (trino != null) {
                trino.close();
            }
        }
    }
}
