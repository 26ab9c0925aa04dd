package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.write.WriteTransaction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One call of a merge or rewrite, on one table or on every table of the lake: the head it plans at, the outputs it
 * wrote, and the commit of every table's compactions in one snapshot through {@link WriteTransaction#compact} (tables
 * in table id order, as DuckLake assigns the outputs' file ids; outputs deleted again when the commit fails before
 * landing).
 */
final class CompactionCall
        implements AutoCloseable
{
    final MoraineCatalog catalog;
    final LakeFileSystem files;
    final CatalogSnapshot head;
    final ScheduledPaths scheduledPaths;
    private final WriteTransaction transaction;
    private final List<TableCompaction> tables = new ArrayList<>();
    private final List<String> written = new ArrayList<>();
    private boolean finished;

    /**
     * Plans at the snapshot the commit's transaction reads, so that any commit landing before this one is checked
     * against it by DuckLake's conflict rules (a delete from a source file, say, refuses the compaction).
     */
    CompactionCall(MoraineCatalog catalog, LakeFileSystem files)
    {
        this.catalog = catalog;
        this.files = files;
        this.transaction = WriteTransaction.begin(catalog, files);
        this.head = catalog.at(transaction.readSnapshotId());
        this.scheduledPaths = new ScheduledPaths(dataPath(), new CatalogRows(catalog, head.reader()));
    }

    String dataPath()
    {
        return head.facts().get(StoreFacts.DATA_PATH);
    }

    /** The named table at the head. */
    TableCompaction table(String schema, String tableName)
    {
        Optional<LakeTable> found = head.model().table(schema, tableName);
        if (found.isEmpty()) {
            throw new NotFoundException("table " + schema + "." + tableName + " does not exist at snapshot " + head.id() + "; check the name");
        }
        return add(found.get());
    }

    /** Every table of the lake at the head, by table id (DuckDB's call without a table visits every table too). */
    List<TableCompaction> everyTable()
    {
        return head.model().tables().stream().sorted(Comparator.comparingLong(LakeTable::id)).map(this::add).toList();
    }

    private TableCompaction add(LakeTable table)
    {
        TableCompaction compaction = new TableCompaction(this, table);
        tables.add(compaction);
        return compaction;
    }

    void written(String path)
    {
        written.add(path);
    }

    /** Commits every table's compactions in one snapshot; returns what DuckLake's call returns, table by table. */
    List<CompactionResult> commit()
    {
        List<TableCompaction> compacted = tables.stream().filter(table -> !table.compactions().isEmpty())
                .sorted(Comparator.comparingLong(table -> table.table.id())).toList();
        if (compacted.isEmpty()) {
            return List.of();
        }
        boolean landed = false;
        finished = true;
        try {
            for (TableCompaction table : compacted) {
                table.compactions().forEach(compaction -> transaction.compact(table.table.schema().name(), table.table.name(), compaction));
            }
            transaction.commit();
            landed = true;
        }
        finally {
            if (!landed) {
                deleteWritten();
            }
        }
        return compacted.stream().flatMap(table -> table.compactions().stream().map(compaction -> new CompactionResult(table.table.schema().name(),
                table.table.name(), compaction.sources().size(), compaction.output() == null ? 0 : 1))).toList();
    }

    private void deleteWritten()
    {
        CompactionOutput cleanup = new CompactionOutput(files, "", List.of());
        written.forEach(cleanup::deleteQuietly);
    }

    @Override
    public void close()
    {
        try {
            if (!finished) {
                finished = true;
                transaction.rollback();
                deleteWritten();
            }
        }
        finally {
            head.close();
        }
    }
}
