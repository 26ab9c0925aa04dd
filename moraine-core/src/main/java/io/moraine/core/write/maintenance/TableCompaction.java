package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.CompactedFiles;
import io.moraine.core.write.files.WrittenDataFile;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a merge or rewrite of one table shares: the table at the call's head, its settings, and writing each
 * compaction's output (its rows in the table's sort order, when it has one); the call commits them.
 */
final class TableCompaction
{
    final CatalogSnapshot head;
    final LakeFileSystem files;
    final LakeTable table;
    final String tablePath;
    private final CompactionCall call;
    private final List<CompactedFiles> compactions = new ArrayList<>();

    TableCompaction(CompactionCall call, LakeTable table)
    {
        this.call = call;
        this.head = call.head;
        this.files = call.files;
        this.table = table;
        this.tablePath = table.resolvedPath(call.dataPath());
    }

    /** DuckLake's {@code auto_compact} option for the table (default true): false skips the table. */
    boolean autoCompact()
    {
        return head.option("auto_compact", table.schema().id(), table.id()).map(value -> !value.equals("false")).orElse(true);
    }

    Optional<String> option(String key)
    {
        return head.option(key, table.schema().id(), table.id());
    }

    /** The table's columns at snapshot {@code snapshotId} (the schema version the sources were written at). */
    List<TableColumn> columnsAt(long snapshotId)
    {
        return head.columnTreeAsOf(table.id(), snapshotId).stream().map(TableColumn::of).toList();
    }

    /**
     * Writes one compaction's output. As DuckLake, the rows are sorted by the table's current sort order, its keys
     * bound to the columns of the sources' schema version.
     */
    Optional<WrittenDataFile> write(List<CompactionOutput.Input> inputs, boolean rowIds, boolean snapshotIds, String call)
    {
        CompactionSource first = inputs.getFirst().source();
        List<TableColumn> columns = columnsAt(first.beginSnapshot());
        Optional<CompactionSortOrder> sortOrder = CompactionSortOrder.of(head.model().sortSpec(table), columns, table.qualifiedName(), call);
        Optional<WrittenDataFile> output = new CompactionOutput(files, tablePath, columns)
                .write(inputs, rowIds, snapshotIds, first.partitionValues(), sortOrder, this::nameMapping);
        output.ifPresent(file -> this.call.written(file.path()));
        return output;
    }

    /** The {@code ducklake_name_mapping} rows of mapping {@code mappingId}. */
    private List<Row> nameMapping(long mappingId)
    {
        try (var rows = head.everyVersion(TableKind.NAME_MAPPING, mappingId)) {
            return rows.toList();
        }
    }

    CompactedFiles.Source source(CompactionSource source, Long deleteFileId)
    {
        ScheduledPaths.Stored stored = call.scheduledPaths.stored(source.file());
        return new CompactedFiles.Source(source.id(), deleteFileId, source.inlinedDeletions(), stored.path(), stored.relative());
    }

    void add(CompactedFiles compaction)
    {
        compactions.add(compaction);
    }

    List<CompactedFiles> compactions()
    {
        return compactions;
    }

    static InvalidArgumentException badOption(String key, String value)
    {
        return new InvalidArgumentException("option " + key + " is '" + value + "', not a whole number of bytes; set it to one, e.g. 536870912");
    }
}
