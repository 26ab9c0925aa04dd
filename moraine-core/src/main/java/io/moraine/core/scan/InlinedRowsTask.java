package io.moraine.core.scan;

import java.util.List;

/**
 * A table's inlined rows at the scan's snapshot, read from the catalog by the inline reader.
 *
 * @param plannedHead the store's newest snapshot in the view the data files were planned from: a flush committed after
 *         it moved inlined rows into files the plan lacks, and the reader refuses to go on (its rows would be lost)
 * @param schemaVersions the schema versions the table has inlined rows under (its registered inlined-data tables)
 */
public record InlinedRowsTask(long tableId, long snapshotId, long plannedHead, List<Long> schemaVersions)
        implements ScanTask
{
    public InlinedRowsTask
    {
        schemaVersions = List.copyOf(schemaVersions);
    }
}
