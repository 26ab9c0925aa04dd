package io.moraine.core.catalog;

import static java.util.Objects.requireNonNull;

/**
 * How to create a catalog in an empty store.
 *
 * @param dataPath where the lake's data files live ({@code data_path}); a trailing '/' is added
 * @param encrypted whether data files are encrypted ({@code encrypted})
 * @param bootstrap write DuckLake's bootstrap rows (snapshot 0 and schema {@code main}), as DuckLake's own ATTACH of
 * a new catalog would; false for an import, which copies every row from its source
 * @param createdBy the {@code created_by} fact
 */
public record NewCatalog(String dataPath, boolean encrypted, boolean bootstrap, String createdBy)
{
    public static final String CREATED_BY = "moraine-jvm " + MoraineCatalog.VERSION;

    public NewCatalog
    {
        requireNonNull(dataPath, "dataPath is null");
        requireNonNull(createdBy, "createdBy is null");
    }

    /** A new, empty DuckLake catalog whose data lives under {@code dataPath}. */
    public static NewCatalog bootstrapped(String dataPath)
    {
        return new NewCatalog(dataPath, false, true, CREATED_BY);
    }
}
