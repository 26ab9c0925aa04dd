package io.moraine.core.scan;

/**
 * A table's inlined rows at the scan's snapshot, read from the catalog by the inline reader.
 *
 * @param plannedHead the store's newest snapshot in the view the data files were planned from: a flush committed after
 *         it moved inlined rows into files the plan lacks, and the reader refuses to go on (its rows would be lost)
 */
public record InlinedRowsTask(long tableId, long snapshotId, long plannedHead)
        implements ScanTask {}
