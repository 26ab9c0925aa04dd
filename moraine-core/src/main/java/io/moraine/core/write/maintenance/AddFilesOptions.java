package io.moraine.core.write.maintenance;

/**
 * The options of {@code ducklake_add_data_files}: {@code allowMissing} lets a file lack columns of the table (they read
 * as their default, or NULL); {@code ignoreExtraColumns} lets it hold columns the table does not have (never read);
 * {@code hivePartitioning} ({@code hive_partitioning}, on unless set false) reads {@code key=value} directories of a
 * file's path as values of the columns and partition keys they name.
 */
public record AddFilesOptions(boolean allowMissing, boolean ignoreExtraColumns, boolean hivePartitioning)
{
    /** DuckLake's defaults: no missing or extra columns, hive directories read. */
    public static final AddFilesOptions DEFAULTS = new AddFilesOptions(false, false, true);

    /** With hive directories read, as DuckLake does unless {@code hive_partitioning => false}. */
    public AddFilesOptions(boolean allowMissing, boolean ignoreExtraColumns)
    {
        this(allowMissing, ignoreExtraColumns, true);
    }
}
