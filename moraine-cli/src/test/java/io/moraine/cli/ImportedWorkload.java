package io.moraine.cli;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The oracle workload run by DuckDB into {@code <directory>/lake} and its catalog imported into a moraine store at
 * {@code <directory>/store}: what the command tests run their commands on. Closing it closes the oracle.
 */
public record ImportedWorkload(DuckLakeOracle oracle, String store)
        implements AutoCloseable
{
    public static ImportedWorkload create(Path directory)
            throws Exception
    {
        DuckLakeOracle oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        String store = directory.resolve("store").toString();
        String copy = oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"));
        CatalogImporter.importCatalog(DuckLakeSource.parse(copy), StoreUri.parse(store), Optional.empty(), CatalogImporter.Progress.SILENT);
        return new ImportedWorkload(oracle, store);
    }

    @Override
    public void close()
            throws Exception
    {
        oracle.close();
    }
}
