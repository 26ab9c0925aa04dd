package io.moraine.duckdb.ext;

import io.moraine.core.row.ColumnType;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.tx.StagedOperation;
import io.moraine.core.tx.StagedTransaction;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One DuckDB transaction on one moraine attach. Its reads see the catalog as it first read each table plus what it
 * staged (read-your-writes); its INSERT, UPDATE, DELETE and CREATE TABLE statements stage changes here, and DuckDB's
 * commit lands them all as one core transaction (one durable batch), or, for a store DuckLake is creating, as the
 * new catalog. A lost race fails with the core's "commit conflict" message, which DuckLake retries on.
 */
final class AttachTransaction
        implements AutoCloseable
{
    private final AttachedStore store;
    private final Map<TableKind, StagedCatalogRows> catalogRows = new LinkedHashMap<>();
    private final Map<String, StagedInlinedRows> inlinedRows = new LinkedHashMap<>();
    private final Map<String, StagedFileDeletes> fileDeletes = new LinkedHashMap<>();
    // The tables whose changes commit, in the order the transaction first changed them.
    private final List<Object> changeOrder = new ArrayList<>();
    private OptionalLong readSnapshot = OptionalLong.empty();
    private io.moraine.core.store.SlateStore.SnapshotView view;
    // The tables this transaction created: in the store once it commits.
    private final List<Runnable> onCommit = new ArrayList<>();
    // The inlined rows this transaction deleted or ended, claimed against the attach's other open transactions.
    private final InlinedRowClaims.Held claims = new InlinedRowClaims.Held();

    AttachTransaction(AttachedStore store)
    {
        this.store = store;
    }

    AttachedStore store()
    {
        return store;
    }

    /** The table as this transaction sees it, read from the store at its first use here. */
    StagedCatalogRows catalogRows(TableKind kind)
    {
        touch();
        return catalogRows.computeIfAbsent(kind, k -> new StagedCatalogRows(k, store.committedRows(view == null ? null : view.reader(), k)));
    }

    /** What this transaction staged for an inlined data table, or null if it staged nothing. */
    StagedInlinedRows inlinedRows(String table)
    {
        return inlinedRows.get(table);
    }

    private StagedInlinedRows stagedInlined(InlinedDataTable table)
    {
        touch();
        StagedInlinedRows rows = inlinedRows.get(table.name());
        if (rows == null) {
            rows = new StagedInlinedRows(table.tableId(), table.schemaVersion());
            inlinedRows.put(table.name(), rows);
            changeOrder.add(rows);
        }
        return rows;
    }

    private void touch()
    {
        if (readSnapshot.isPresent()) {
            return;
        }
        if (store.exists()) {
            // A statement's first read: a READ_ONLY attach checks the store first (docs/freshness.md).
            store.catalog().store().catchUp();
            view = store.catalog().store().snapshot();
            byte[] head = view.reader().get(io.moraine.core.keyspace.SystemKeys.HEAD);
            readSnapshot = OptionalLong.of(head == null ? -1 : io.moraine.core.keyspace.SystemKeys.decodeHead(head));
            store.serveInlinedTablesAt(view.reader(), readSnapshot.getAsLong());
        }
        else {
            readSnapshot = OptionalLong.of(-1);
        }
    }

    /** What this transaction reads the store through: one consistent view, taken at its first read. */
    io.moraine.core.store.KeyValueReader reader()
    {
        touch();
        return view != null ? view.reader() : store.catalog().store().latest();
    }

    /** Whether this transaction's view holds the registration of a stored inlined data table. */
    boolean sees(InlinedDataTable table)
    {
        touch();
        return view != null && io.moraine.core.inline.read.InlinedTables.dataTables(view.reader())
                .contains(new io.moraine.core.inline.read.InlinedTables.DataTable(table.tableId(), table.schemaVersion()));
    }

    /** Whether this transaction's view holds a stored inlined delete table. */
    boolean sees(InlinedDeleteTable table)
    {
        touch();
        return view != null && io.moraine.core.inline.read.InlinedTables.deleteTables(view.reader())
                .contains(new io.moraine.core.inline.read.InlinedTables.DeleteTable(table.tableId()));
    }

    /** CREATE TABLE of an inlined data table: its registration commits with this transaction. */
    void created(InlinedDataTable table)
    {
        stagedInlined(table).create(table.userSchema());
        onCommit.add(table::markStored);
    }

    /** INSERT: takes ownership of {@code batch}, which holds every column of the table in order. */
    long insert(ServedTable table, VectorSchemaRoot batch)
    {
        int rows = batch.getRowCount();
        switch (table) {
            case CatalogTable catalog -> {
                try (batch) {
                    StagedCatalogRows staged = changing(catalog.kind());
                    List<io.moraine.core.row.Column> columns = catalog.kind().columns();
                    for (int row = 0; row < rows; row++) {
                        Object[] cells = new Object[columns.size()];
                        for (int column = 0; column < cells.length; column++) {
                            cells[column] = ArrowCells.cell(batch.getVector(column), row, columns.get(column).type());
                        }
                        staged.insert(cells);
                    }
                }
            }
            case InlinedDataTable inlined -> stagedInlined(inlined).insert(batch);
            case InlinedDeleteTable deletes -> {
                try (batch) {
                    StagedFileDeletes staged = changing(deletes);
                    for (int row = 0; row < rows; row++) {
                        long[] cells = new long[3];
                        for (int column = 0; column < 3; column++) {
                            Object cell = ArrowCells.cell(batch.getVector(column), row, ColumnType.BIGINT);
                            if (cell == null) {
                                throw new InvalidArgumentException("INSERT into " + deletes.name() + " needs file_id, row_id and begin_snapshot on every row");
                            }
                            cells[column] = (Long) cell;
                        }
                        staged.insert(cells);
                    }
                }
            }
            default -> {
                batch.close();
                throw refused("INSERT", table);
            }
        }
        return rows;
    }

    /** UPDATE: {@code values} holds the new values of {@code columns} (table column indexes) for the rows {@code rowIds}. */
    long update(ServedTable table, int[] columns, VectorSchemaRoot values, long[] rowIds)
    {
        try (values) {
            switch (table) {
                case CatalogTable catalog -> {
                    StagedCatalogRows staged = changing(catalog.kind());
                    for (int row = 0; row < rowIds.length; row++) {
                        Object[] cells = new Object[columns.length];
                        for (int i = 0; i < columns.length; i++) {
                            ColumnType type = catalog.kind().columns().get(columns[i]).type();
                            cells[i] = ArrowCells.cell(values.getVector(i), row, type);
                        }
                        staged.update(rowIds[row], columns, cells);
                    }
                }
                case InlinedDataTable inlined -> {
                    if (columns.length != 1 || columns[0] != 2) {
                        throw new InvalidArgumentException("UPDATE of " + inlined.name() + " may set end_snapshot only (DuckLake's deletion of "
                                + "inlined rows); moraine keeps inlined row values as inserted");
                    }
                    BigIntVector ends = (BigIntVector) values.getVector(0);
                    long[] endedRows = new long[rowIds.length];
                    for (int row = 0; row < rowIds.length; row++) {
                        if (ends.isNull(row)) {
                            throw new InvalidArgumentException("UPDATE of " + inlined.name() + " sets end_snapshot to NULL; an ended inlined row "
                                    + "cannot be revived");
                        }
                        endedRows[row] = InlinedDataTable.rowIdOf(rowIds[row]);
                    }
                    store.inlinedRowClaims().claimEnds(this, claims, inlined.name(), endedRows);
                    StagedInlinedRows staged = stagedInlined(inlined);
                    for (int row = 0; row < rowIds.length; row++) {
                        staged.end(endedRows[row], ends.get(row));
                    }
                }
                default -> throw refused("UPDATE", table);
            }
        }
        return rowIds.length;
    }

    long delete(ServedTable table, long[] rowIds)
    {
        switch (table) {
            case CatalogTable catalog -> {
                StagedCatalogRows staged = changing(catalog.kind());
                for (long rowId : rowIds) {
                    staged.delete(rowId);
                }
            }
            case InlinedDataTable inlined -> {
                store.inlinedRowClaims().claimDeletions(this, claims, inlined.name(), rowIds);
                StagedInlinedRows staged = stagedInlined(inlined);
                for (long rowId : rowIds) {
                    staged.delete(InlinedDataTable.rowIdOf(rowId), InlinedDataTable.beginSnapshotOf(rowId));
                }
            }
            case InlinedDeleteTable deletes -> {
                StagedFileDeletes staged = changing(deletes);
                for (long rowId : rowIds) {
                    staged.delete(rowId);
                }
            }
            default -> throw refused("DELETE", table);
        }
        return rowIds.length;
    }

    /** DROP TABLE of a superseded inlined data table: its deregistration commits with this transaction. */
    void dropped(InlinedDataTable table)
    {
        stagedInlined(table).drop();
    }

    /** DROP TABLE of a dropped table's inlined delete table: it and its file deletes go at this transaction's commit. */
    void dropped(InlinedDeleteTable table)
    {
        changing(table).drop();
    }

    /** The inlined file deletes of a table as this transaction sees them. */
    StagedFileDeletes fileDeletes(InlinedDeleteTable table)
    {
        touch();
        return fileDeletes.computeIfAbsent(table.name(), name -> new StagedFileDeletes(table.tableId(), table.committedRows(reader())));
    }

    private StagedFileDeletes changing(InlinedDeleteTable table)
    {
        StagedFileDeletes rows = fileDeletes(table);
        if (!changeOrder.contains(rows)) {
            changeOrder.add(rows);
        }
        return rows;
    }

    /** CREATE TABLE of an inlined delete table: it exists from this transaction's commit on, even while empty. */
    void created(InlinedDeleteTable table)
    {
        changing(table).create();
        onCommit.add(table::markStored);
    }

    private StagedCatalogRows changing(TableKind kind)
    {
        StagedCatalogRows rows = catalogRows(kind);
        if (!changeOrder.contains(rows)) {
            changeOrder.add(rows);
        }
        return rows;
    }

    private static InvalidArgumentException refused(String statement, ServedTable table)
    {
        return new InvalidArgumentException(statement + " into " + table.name() + " is not supported by this version of the moraine "
                + "extension");
    }

    /** Lands the staged changes; a transaction that staged nothing writes nothing. */
    void commit()
    {
        List<StagedOperation> operations = new ArrayList<>();
        Map<String, String> facts = new LinkedHashMap<>();
        for (Object changed : changeOrder) {
            if (changed instanceof StagedCatalogRows rows) {
                if (rows.changed()) {
                    operations.addAll(rows.operations());
                    facts.putAll(rows.insertedFacts());
                }
            }
            else if (changed instanceof StagedFileDeletes deletes) {
                operations.addAll(deletes.operations());
            }
            else {
                operations.addAll(((StagedInlinedRows) changed).operations());
            }
        }
        if (!store.exists()) {
            if (!operations.isEmpty() || !facts.isEmpty()) {
                store.create(facts, operations);
                onCommit.forEach(Runnable::run);
            }
            return;
        }
        if (!facts.isEmpty()) {
            throw new InvalidArgumentException("INSERT into ducklake_metadata of " + facts.keySet() + " into the existing catalog "
                    + store.uri() + ": moraine keeps these as store facts, set once when the lake is created");
        }
        if (operations.isEmpty()) {
            return;
        }
        try (io.moraine.core.catalog.CatalogSnapshot head = store.catalog().latest()) {
            io.moraine.core.catalog.NewFileLocations.check(head, operations, store.allowedLocations());
        }
        StagedTransaction transaction = store.catalog().begin(readSnapshot.orElse(store.headSnapshot()));
        operations.forEach(transaction::stage);
        try {
            transaction.commit(store.commitPolicy());
        }
        catch (io.moraine.core.error.CommitConflictException e) {
            CommitConflicts.counted();
            throw e;
        }
        onCommit.forEach(Runnable::run);
    }

    @Override
    public void close()
    {
        if (view != null) {
            view.close();
            view = null;
        }
        InlinedRowClaims.release(this, claims);
        inlinedRows.values().forEach(StagedInlinedRows::close);
        inlinedRows.clear();
        catalogRows.clear();
        fileDeletes.clear();
        changeOrder.clear();
    }
}
