package io.moraine.importer;

import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckLakeOracle;

import java.nio.file.Path;
import java.util.Optional;

/** Imports the oracle's DuckLake catalog, as it stands, into a moraine store (through a copy, as DuckDB holds the file). */
public final class OracleImports
{
    private OracleImports() {}

    public static void importInto(DuckLakeOracle oracle, Path copy, StoreUri store)
            throws Exception
    {
        importInto(oracle, copy, store, Optional.empty());
    }

    /** As {@link #importInto(DuckLakeOracle, Path, StoreUri)}, with the lake's data path replaced by {@code dataPath}. */
    public static void importInto(DuckLakeOracle oracle, Path copy, StoreUri store, Optional<String> dataPath)
            throws Exception
    {
        CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(copy)), store, dataPath, CatalogImporter.Progress.SILENT);
    }
}
