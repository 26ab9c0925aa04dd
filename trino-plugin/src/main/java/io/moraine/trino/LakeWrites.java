package io.moraine.trino;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.MoraineException;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.ColumnDefinition;
import io.moraine.core.write.files.DataFileLayout;
import io.moraine.core.write.LakeOptions;
import io.moraine.core.write.NewTable;
import io.moraine.core.write.RowDeletes;
import io.moraine.core.write.StatementInlining;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.files.WrittenDataFile;
import io.airlift.slice.Slice;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.util.VectorSchemaRootAppender;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The coordinator's side of Trino's writes: each DDL statement is one {@link WriteTransaction} committed at once; an
 * INSERT or CREATE TABLE AS keeps its transaction from {@code begin*} to {@code finish*}, where the workers' fragments
 * are added and it commits once. Every DuckLake rule is the core's; this maps Trino's statements onto it.
 */
final class LakeWrites
{
    private final MoraineCatalogHolder holder;
    private final MoraineTypes types;
    private final TrinoFileSystemFactory fileSystemFactory;
    private WriteTransaction pending;
    private java.util.Map<String, Object> createdTableProperties = java.util.Map.of();

    LakeWrites(MoraineCatalogHolder holder, MoraineTypes types, TrinoFileSystemFactory fileSystemFactory)
    {
        this.holder = holder;
        this.types = types;
        this.fileSystemFactory = fileSystemFactory;
    }

    /** Runs {@code change} in a transaction of its own and commits it. */
    void commit(Consumer<WriteTransaction> change)
    {
        MoraineCatalog writer = holder.writer();
        try {
            WriteTransaction transaction = WriteTransaction.begin(writer);
            try {
                change.accept(transaction);
            }
            catch (RuntimeException e) {
                transaction.rollback();
                throw e;
            }
            transaction.commit();
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    NewTable newTable(ConnectorTableMetadata metadata)
    {
        List<ColumnDefinition> columns = new ArrayList<>();
        for (ColumnMetadata column : metadata.getColumns()) {
            if (column.isHidden()) {
                continue;
            }
            if (!column.isNullable()) {
                throw new TrinoException(NOT_SUPPORTED, "column " + column.getName() + " is NOT NULL; moraine creates nullable columns only (drop NOT NULL)");
            }
            if (column.getDefaultValue().isPresent()) {
                throw new TrinoException(NOT_SUPPORTED, "column " + column.getName() + " has a DEFAULT; moraine does not create column defaults from Trino");
            }
            columns.add(types.toColumnDefinition(column.getName(), column.getType()));
        }
        SchemaTableName name = metadata.getTable();
        return new NewTable(name.getSchemaName(), name.getTableName(), columns, MoraineTableProperties.partitioning(metadata.getProperties()),
                MoraineTableProperties.sortOrder(metadata.getProperties()), metadata.getComment());
    }

    /** Sets the table's {@code data_inlining_row_limit} when the statement gave one (a DuckLake option, written apart from the snapshot). */
    void setInliningLimit(SchemaTableName table, Optional<Integer> limit)
    {
        limit.ifPresent(value -> {
            try {
                LakeOptions.setForTable(holder.writer(), table.getSchemaName(), table.getTableName(), "data_inlining_row_limit", value.toString());
            }
            catch (MoraineException e) {
                throw MoraineErrorCode.toTrino(e);
            }
        });
    }

    /** Begins CREATE TABLE AS: the table is created in the statement's transaction, committed with its rows. */
    MoraineWritableTableHandle beginCreateTable(ConnectorTableMetadata metadata)
    {
        NewTable table = newTable(metadata);
        MoraineTableProperties.inliningRowLimit(metadata.getProperties());
        createdTableProperties = metadata.getProperties();
        return begin(metadata.getTable(), transaction -> transaction.createTable(table), null, null);
    }

    /** The table properties of the CREATE TABLE AS this transaction runs (its inlining limit is set once the table is committed). */
    java.util.Map<String, Object> createdTableProperties()
    {
        return createdTableProperties;
    }

    ColumnDefinition columnDefinition(String name, Type type)
    {
        return types.toColumnDefinition(name, type);
    }

    Optional<Type> supportedWriteType(Type type)
    {
        return types.supportedWriteType(type);
    }

    /** Begins INSERT into an existing table; {@code columnIds} are the columns in page order. */
    MoraineWritableTableHandle beginInsert(SchemaTableName table, List<Long> columnIds)
    {
        return begin(table, transaction -> {}, columnIds, null);
    }

    /**
     * Begins DELETE, UPDATE or MERGE: the transaction can write delete files (through {@code session}'s file system);
     * the handle takes every column in the core's order (the merge pages' data channels).
     */
    MoraineWritableTableHandle beginMerge(ConnectorSession session, SchemaTableName table)
    {
        return begin(table, transaction -> {}, null, new io.moraine.files.TrinoLakeFileSystem(fileSystemFactory.create(session)));
    }

    /** TRUNCATE TABLE: every visible row deleted, in a transaction of its own. */
    void truncate(SchemaTableName table)
    {
        commit(transaction -> transaction.truncate(table.getSchemaName(), table.getTableName()));
    }

    private MoraineWritableTableHandle begin(SchemaTableName name, Consumer<WriteTransaction> first, List<Long> columnIds, LakeFileSystem files)
    {
        if (pending != null) {
            throw new TrinoException(NOT_SUPPORTED, "moraine writes one table per transaction; this transaction already writes one");
        }
        MoraineCatalog writer = holder.writer();
        try {
            WriteTransaction transaction = files == null ? WriteTransaction.begin(writer) : WriteTransaction.begin(writer, files);
            try {
                first.accept(transaction);
                String schema = name.getSchemaName();
                String table = name.getTableName();
                DataFileLayout layout = transaction.dataFileLayout(schema, table);
                List<TableColumn> columns = layout.columns().columns();
                List<Long> ids = columnIds == null ? columns.stream().map(TableColumn::columnId).toList() : columnIds;
                List<String> names = new ArrayList<>();
                List<Type> columnTypes = new ArrayList<>();
                for (long id : ids) {
                    TableColumn column = layout.columns().column(id).orElseThrow();
                    Type type = types.toTrino(column);
                    types.toColumnDefinition(column.name(), type);  // refuses a column moraine cannot write, naming it
                    names.add(column.name());
                    columnTypes.add(type);
                }
                String dataPath;
                try (CatalogSnapshot snapshot = writer.at(transaction.readSnapshotId())) {
                    dataPath = snapshot.facts().get(StoreFacts.DATA_PATH);
                }
                MoraineWritableTableHandle handle = new MoraineWritableTableHandle(name, names, columnTypes, ids,
                        WriteLayout.of(layout, dataPath, holder.dataPathOverride()), transaction.inliningRowLimit(schema, table));
                pending = transaction;
                return handle;
            }
            catch (RuntimeException e) {
                transaction.rollback();
                throw e;
            }
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    /** Adds what the workers wrote and commits the statement's transaction once. */
    void finish(ConnectorSession session, MoraineWritableTableHandle handle, Collection<Slice> fragments)
    {
        WriteTransaction transaction = pending;
        pending = null;
        if (transaction == null) {
            throw new TrinoException(io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR, "no write of " + handle.name() + " begun in this transaction");
        }
        String schema = handle.name().getSchemaName();
        String table = handle.name().getTableName();
        List<WrittenDataFile> files = new ArrayList<>();
        List<WriteFragment.Inlined> inlined = new ArrayList<>();
        List<WriteFragment.Updated> updated = new ArrayList<>();
        RowDeletes deletes = RowDeletes.create();
        for (Slice slice : fragments) {
            WriteFragment fragment = WriteFragment.fromSlice(slice);
            fragment.file().ifPresent(file -> files.add(file.toWrittenDataFile()));
            fragment.inlined().ifPresent(inlined::add);
            fragment.updated().ifPresent(updated::add);
            fragment.deletes().ifPresent(rows -> {
                for (int i = 0; i < rows.fileIds().length; i++) {
                    deletes.fileRow(rows.fileIds()[i], rows.positions()[i]);
                }
                for (long rowId : rows.inlinedRowIds()) {
                    deletes.inlinedRow(rowId);
                }
            });
        }
        long inlinedRows = inlined.stream().mapToLong(WriteFragment.Inlined::rows).sum();
        try (BufferAllocator allocator = holder.newAllocator("commit " + handle.name()); InlinedBatches batches = InlinedBatches.read(inlined, allocator);
                InlinedBatches updates = InlinedBatches.read(updated.stream().map(rows -> new WriteFragment.Inlined(rows.rowIds().length, rows.arrowIpc())).toList(),
                        allocator)) {
            try {
                if (!deletes.isEmpty()) {
                    transaction.deleteRows(schema, table, deletes);
                }
                List<VectorSchemaRoot> updateRoots = updates.roots();
                long updatedRows = updated.stream().mapToLong(rows -> rows.rowIds().length).sum();
                if (StatementInlining.inlinesUpdatedRows(updatedRows, handle.inliningRowLimit())) {
                    for (int i = 0; i < updated.size(); i++) {
                        transaction.insertInlinedKeepingRowIds(schema, table, updateRoots.get(i), updated.get(i).rowIds());
                    }
                }
                else if (updatedRows > 0) {
                    // Each task's updated rows fit the limit, but not all of them: a file with their row ids, as DuckLake's.
                    files.addAll(updates.writeFiles(handle, fileSystemFactory.create(session), updated.stream().map(WriteFragment.Updated::rowIds).toList()));
                }
                if (StatementInlining.inlinesNewRows(inlinedRows, files.stream().mapToLong(WrittenDataFile::recordCount).sum(), handle.inliningRowLimit())) {
                    transaction.insertInlined(schema, table, batches.merged(allocator));
                }
                else if (inlinedRows > 0) {
                    // The statement's rows over every sink exceed the limit, though each sink's fit: they go to a file, as DuckLake's would.
                    files.addAll(batches.writeFiles(handle, fileSystemFactory.create(session), null));
                }
                if (!files.isEmpty()) {
                    transaction.appendDataFiles(schema, table, files);
                }
            }
            catch (RuntimeException e) {
                transaction.rollback();
                throw e;
            }
            transaction.commit();
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    /** Drops the statement's transaction, if one is open (the query failed). */
    void rollback()
    {
        if (pending != null) {
            pending.rollback();
            pending = null;
        }
    }

    /** The workers' inlined fragments, decoded. */
    private static final class InlinedBatches
            implements AutoCloseable
    {
        private final List<ArrowStreamReader> readers;
        private final List<VectorSchemaRoot> extra = new ArrayList<>();

        private InlinedBatches(List<ArrowStreamReader> readers)
        {
            this.readers = readers;
        }

        static InlinedBatches read(List<WriteFragment.Inlined> fragments, BufferAllocator allocator)
        {
            List<ArrowStreamReader> readers = new ArrayList<>();
            try {
                for (WriteFragment.Inlined fragment : fragments) {
                    ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(fragment.arrowIpc()), allocator);
                    readers.add(reader);
                    reader.loadNextBatch();
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new InlinedBatches(readers);
        }

        List<VectorSchemaRoot> roots()
        {
            return readers.stream().map(reader -> {
                try {
                    return reader.getVectorSchemaRoot();
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        }

        /** One batch of every fragment's rows; owned by these batches (closed with them). */
        VectorSchemaRoot merged(BufferAllocator allocator)
        {
            List<VectorSchemaRoot> roots = roots();
            if (roots.size() == 1) {
                return roots.getFirst();
            }
            VectorSchemaRoot merged = VectorSchemaRoot.create(roots.getFirst().getSchema(), allocator);
            merged.allocateNew();
            VectorSchemaRootAppender.append(merged, roots.toArray(VectorSchemaRoot[]::new));
            extra.add(merged);
            return merged;
        }

        /** @param rowIds each batch's kept row ids (the files get the row-id column), or null for plain rows */
        List<WrittenDataFile> writeFiles(MoraineWritableTableHandle handle, io.trino.filesystem.TrinoFileSystem fileSystem, List<long[]> rowIds)
        {
            DataFileLayout layout = handle.layout().toLayout();
            List<TableColumn> columns = layout.columns().columns();
            List<Type> columnTypes = columns.stream().map(column -> handle.columnTypes().get(handle.columnIds().indexOf(column.columnId()))).toList();
            List<WrittenDataFile> written = new ArrayList<>();
            List<VectorSchemaRoot> roots = roots();
            for (int r = 0; r < roots.size(); r++) {
                VectorSchemaRoot root = roots.get(r);
                Block[] blocks = new Block[columns.size() + (rowIds == null ? 0 : 1)];
                if (rowIds != null) {
                    blocks[columns.size()] = new io.trino.spi.block.LongArrayBlock(root.getRowCount(), java.util.Optional.empty(), rowIds.get(r));
                }
                for (int i = 0; i < columns.size(); i++) {
                    blocks[i] = ArrowToTrino.block(columnTypes.get(i), columns.get(i), columns.get(i), root.getVector(i), root.getRowCount());
                }
                Page page = new Page(root.getRowCount(), blocks);
                // Through a sink of its own, so partitioned tables get one file per partition value tuple.
                MoraineWritableTableHandle inLayoutOrder = new MoraineWritableTableHandle(handle.name(), columns.stream().map(TableColumn::name).toList(),
                        columnTypes, columns.stream().map(TableColumn::columnId).toList(), handle.layout(), 0);
                MoraineWritePageSink sink = new MoraineWritePageSink(inLayoutOrder, fileSystem, new org.apache.arrow.memory.RootAllocator(), "moraine",
                        rowIds != null);
                sink.appendPage(page);
                sink.finish().join().forEach(slice -> written.add(WriteFragment.fromSlice(slice).file().orElseThrow().toWrittenDataFile()));
            }
            return written;
        }

        @Override
        public void close()
        {
            extra.forEach(VectorSchemaRoot::close);
            for (ArrowStreamReader reader : readers) {
                try {
                    reader.close();
                }
                catch (IOException ignored) {
                    // memory only
                }
            }
        }
    }
}
