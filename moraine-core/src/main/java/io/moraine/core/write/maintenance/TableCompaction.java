package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.CompactedFiles;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.files.WrittenDataFile;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a merge or rewrite of one table shares: the table at the head, its settings, writing each compaction's output
 * and committing every compaction of the call in one snapshot through {@link WriteTransaction#compact} (outputs
 * deleted again when the commit fails before landing).
 */
final class TableCompaction
        implements AutoCloseable
{
    final MoraineCatalog catalog;
    final LakeFileSystem files;
    final CatalogSnapshot head;
    final LakeTable table;
    final String tablePath;
    final ScheduledPaths scheduledPaths;
    private final WriteTransaction transaction;
    private final List<CompactedFiles> compactions = new ArrayList<>();
    private final List<String> written = new ArrayList<>();
    private boolean finished;

    /**
     * Plans at the snapshot the commit's transaction reads, so that any commit landing before this one is checked
     * against it by DuckLake's conflict rules (a delete from a source file, say, refuses the compaction).
     */
    TableCompaction(MoraineCatalog catalog, LakeFileSystem files, String schema, String tableName)
    {
        this.catalog = catalog;
        this.files = files;
        this.transaction = WriteTransaction.begin(catalog, files);
        this.head = catalog.at(transaction.readSnapshotId());
        Optional<LakeTable> found = head.model().table(schema, tableName);
        if (found.isEmpty()) {
            transaction.rollback();
            head.close();
            throw new NotFoundException("table " + schema + "." + tableName + " does not exist at snapshot " + head.id() + "; check the name");
        }
        this.table = found.get();
        String dataPath = head.facts().get(StoreFacts.DATA_PATH);
        this.tablePath = table.resolvedPath(dataPath);
        this.scheduledPaths = new ScheduledPaths(dataPath, new CatalogRows(catalog, head.reader()));
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

    /** DuckLake sorts a compaction's rows by the table's sort order; the core does not sort yet. */
    void refuseSortedTable(String call)
    {
        if (head.sortInfo(table.id()).isPresent() && !head.sortExpressions(table.id(), head.sortInfo(table.id()).get().getLong("sort_id")).isEmpty()) {
            throw new UnsupportedFeatureException("table " + table.qualifiedName() + " has a sort order, which " + call + " applies to the rows it "
                    + "writes; the core does not sort compaction output yet — run " + call + " through DuckDB");
        }
    }

    /** The table's columns at snapshot {@code snapshotId} (the schema version the sources were written at). */
    List<TableColumn> columnsAt(long snapshotId)
    {
        return head.columnTreeAsOf(table.id(), snapshotId).stream().map(TableColumn::of).toList();
    }

    Optional<WrittenDataFile> write(List<CompactionOutput.Input> inputs, boolean rowIds, boolean snapshotIds)
    {
        CompactionSource first = inputs.getFirst().source();
        Optional<WrittenDataFile> output = new CompactionOutput(files, tablePath, columnsAt(first.beginSnapshot()))
                .write(inputs, rowIds, snapshotIds, first.partitionValues());
        output.ifPresent(file -> written.add(file.path()));
        return output;
    }

    CompactedFiles.Source source(CompactionSource source, Long deleteFileId)
    {
        ScheduledPaths.Stored stored = scheduledPaths.stored(source.file());
        return new CompactedFiles.Source(source.id(), deleteFileId, source.inlinedDeletions(), stored.path(), stored.relative());
    }

    void add(CompactedFiles compaction)
    {
        compactions.add(compaction);
    }

    /** Commits every compaction added in one snapshot; returns what DuckLake's call returns. */
    List<CompactionResult> commit()
    {
        if (compactions.isEmpty()) {
            return List.of();
        }
        boolean landed = false;
        finished = true;
        try {
            for (CompactedFiles compaction : compactions) {
                transaction.compact(table.schema().name(), table.name(), compaction);
            }
            transaction.commit();
            landed = true;
        }
        finally {
            if (!landed) {
                CompactionOutput cleanup = new CompactionOutput(files, tablePath, List.of());
                written.forEach(cleanup::deleteQuietly);
            }
        }
        return compactions.stream().map(compaction -> new CompactionResult(table.schema().name(), table.name(), compaction.sources().size(),
                compaction.output() == null ? 0 : 1)).toList();
    }

    static InvalidArgumentException badOption(String key, String value)
    {
        return new InvalidArgumentException("option " + key + " is '" + value + "', not a whole number of bytes; set it to one, e.g. 536870912");
    }

    @Override
    public void close()
    {
        try {
            if (!finished) {
                finished = true;
                transaction.rollback();
                CompactionOutput cleanup = new CompactionOutput(files, tablePath, List.of());
                written.forEach(cleanup::deleteQuietly);
            }
        }
        finally {
            head.close();
        }
    }
}
