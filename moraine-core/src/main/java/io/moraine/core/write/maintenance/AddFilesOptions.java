package io.moraine.core.write.maintenance;

/**
 * The options of {@code ducklake_add_data_files}: {@code allowMissing} lets a file lack columns of the table (they read
 * as their default, or NULL); {@code ignoreExtraColumns} lets it hold columns the table does not have (never read).
 */
public record AddFilesOptions(boolean allowMissing, boolean ignoreExtraColumns)
{
    /** DuckLake's defaults: both off. */
    public static final AddFilesOptions DEFAULTS = new AddFilesOptions(false, false);
}
