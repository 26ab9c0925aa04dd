package io.moraine.duckdb.ext;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlineScan;
import io.moraine.core.inline.read.InlineSelection;
import io.moraine.core.inline.read.InlinedTables;
import io.moraine.core.scan.InlinedVersionColumns;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Optional;

/**
 * {@code ducklake_inlined_data_<t>_<v>} as DuckLake keeps it: row_id, begin_snapshot, end_snapshot, then the user
 * columns of that schema version; every row version the store holds, live or ended, read with the inline reader.
 */
final class InlinedDataTable
        implements ServedTable
{
    private static final int SYSTEM_COLUMNS = 3;

    private final MoraineCatalog catalog;
    private final InlinedTables.DataTable table;
    private final Schema userSchema;
    private final Schema schema;
    // Top-level UUID columns whose inlined chunks hold them as text (DuckDB's default Arrow export, imports and writes).
    private final Set<String> uuidTextColumns = new HashSet<>();
    // False while the table is created by a transaction that has not committed: the store holds nothing of it yet.
    private volatile boolean stored;

    /** A table the store holds. */
    InlinedDataTable(MoraineCatalog catalog, InlinedTables.DataTable table)
    {
        this(catalog, table, InlinedTables.userSchema(catalog.store().latest(), table), uuidColumns(catalog, table), true);
    }

    /** A table a transaction creates, with its user columns as DuckDB exports them and the names of its UUID columns. */
    static InlinedDataTable created(MoraineCatalog catalog, InlinedTables.DataTable table, Schema userSchema, Set<String> uuidColumns)
    {
        return new InlinedDataTable(catalog, table, userSchema, uuidColumns, false);
    }

    private InlinedDataTable(MoraineCatalog catalog, InlinedTables.DataTable table, Schema userSchema, Set<String> uuids, boolean stored)
    {
        this.catalog = catalog;
        this.table = table;
        this.userSchema = userSchema;
        this.stored = stored;
        List<Field> fields = new ArrayList<>(List.of(InlineScan.ROW_ID, InlineScan.BEGIN_SNAPSHOT, InlineScan.END_SNAPSHOT));
        for (Field field : userSchema.getFields()) {
            boolean uuidAsText = uuids.contains(field.getName()) && field.getType() instanceof ArrowType.Utf8;
            fields.add(uuidAsText ? UuidText.field(field.getName()) : field);
            if (uuidAsText) {
                uuidTextColumns.add(field.getName());
            }
        }
        this.schema = new Schema(fields);
    }

    long tableId()
    {
        return table.tableId();
    }

    long schemaVersion()
    {
        return table.schemaVersion();
    }

    Schema userSchema()
    {
        return userSchema;
    }

    void markStored()
    {
        stored = true;
    }

    boolean isStored()
    {
        return stored;
    }

    private static Set<String> uuidColumns(MoraineCatalog catalog, InlinedTables.DataTable table)
    {
        Set<String> names = new HashSet<>();
        try (CatalogSnapshot snapshot = catalog.latest()) {
            InlinedVersionColumns.of(snapshot, table.tableId(), table.schemaVersion()).ifPresent(columns -> {
                for (TableColumn column : columns.columns()) {
                    if (column.type().is(PrimitiveKind.UUID)) {
                        names.add(column.name());
                    }
                }
            });
        }
        catch (NotFoundException e) {
            // No snapshot: no columns to look up.
        }
        return names;
    }

    @Override
    public String name()
    {
        return table.tableName();
    }

    @Override
    public Schema schema()
    {
        return schema;
    }

    // A DuckDB row id names one row version: its begin_snapshot above its DuckLake row_id.
    private static final int ROW_ID_BITS = 40;
    private static final long ROW_ID_MASK = (1L << ROW_ID_BITS) - 1;

    static boolean isAddressable(long rowId, long beginSnapshot)
    {
        return rowId >= 0 && rowId <= ROW_ID_MASK && beginSnapshot >= 0 && beginSnapshot < 1L << (63 - ROW_ID_BITS);
    }

    static long versionRowId(long rowId, long beginSnapshot)
    {
        if (!isAddressable(rowId, beginSnapshot)) {
            throw new InvalidArgumentException("inlined row (row_id " + rowId + ", begin_snapshot " + beginSnapshot + ") is beyond what "
                    + "this version of the moraine extension addresses for UPDATE and DELETE (row ids below 2^40, snapshots below 2^23)");
        }
        return beginSnapshot << ROW_ID_BITS | rowId;
    }

    static long rowIdOf(long versionRowId)
    {
        return versionRowId & ROW_ID_MASK;
    }

    static long beginSnapshotOf(long versionRowId)
    {
        return versionRowId >>> ROW_ID_BITS;
    }

    /**
     * The committed rows, then the rows {@code transaction} inserted, as the transaction left them: without the
     * versions it deleted, with the end_snapshot it set. DuckDB's row id of a row names its version
     * ({@link #versionRowId}): UPDATE ... SET end_snapshot ends the row, DELETE removes that version.
     */
    @Override
    public BatchSource open(AttachTransaction transaction, int[] columns, boolean rowIds, ScanFilter filter, BufferAllocator allocator)
    {
        List<String> userColumns = new ArrayList<>();
        for (int column : columns) {
            if (column >= SYSTEM_COLUMNS) {
                userColumns.add(schema.getFields().get(column).getName());
            }
        }
        // Every version that began at any snapshot: the table's whole contents, as DuckLake's own table holds them.
        InlineScan scan = stored ? InlineReader.scanVersion(transaction != null ? transaction.reader() : catalog.store().latest(), table.tableId(), table.schemaVersion(),
                new InlineSelection.ForFlush(Long.MAX_VALUE), Optional.of(userColumns), CatalogTable.BATCH_ROWS, allocator) : null;
        StagedInlinedRows staged = transaction == null ? null : transaction.inlinedRows(table.tableName());
        java.util.Iterator<VectorSchemaRoot> inserted = staged == null ? java.util.Collections.emptyIterator() : List.copyOf(staged.inserted()).iterator();
        StagedVersionChanges changes = staged == null ? StagedVersionChanges.NONE : staged.versionChanges();
        return new BatchSource()
        {
            private final List<FieldVector> converted = new ArrayList<>();

            @Override
            public VectorSchemaRoot next()
            {
                releaseConverted();
                while (scan != null && scan.hasNext()) {
                    VectorSchemaRoot root = scan.next().root();
                    int users = root.getFieldVectors().size() - SYSTEM_COLUMNS;
                    VectorSchemaRoot seen = asStaged(root, users, users + 1, users + 2);
                    if (seen.getRowCount() > 0) {
                        return project(seen, users, users + 1, users + 2);
                    }
                }
                while (inserted.hasNext()) {
                    VectorSchemaRoot seen = asStaged(inserted.next(), 0, 1, 2);
                    if (seen.getRowCount() > 0) {
                        return project(seen, 0, 1, 2);
                    }
                }
                return null;
            }

            /** {@code root} with the transaction's deletes and ends applied; a copy it made is released with the batch. */
            private VectorSchemaRoot asStaged(VectorSchemaRoot root, int rowId, int begin, int end)
            {
                VectorSchemaRoot seen = changes.applyTo(root, rowId, begin, end, allocator);
                if (seen != root) {
                    converted.addAll(seen.getFieldVectors());
                }
                return seen;
            }

            /** A view over {@code root}'s vectors: exporting it retains their buffers, their owner releases its own. */
            private VectorSchemaRoot project(VectorSchemaRoot root, int rowId, int begin, int end)
            {
                List<FieldVector> vectors = new ArrayList<>();
                for (int column : columns) {
                    vectors.add(switch (column) {
                        case 0 -> root.getVector(rowId);
                        case 1 -> root.getVector(begin);
                        case 2 -> root.getVector(end);
                        default -> userVector(root, schema.getFields().get(column).getName(), allocator);
                    });
                }
                if (rowIds) {
                    BigIntVector copy = (BigIntVector) ROW_ID.createVector(allocator);
                    BigIntVector source = (BigIntVector) root.getVector(rowId);
                    BigIntVector begins = (BigIntVector) root.getVector(begin);
                    copy.allocateNew(root.getRowCount());
                    for (int i = 0; i < root.getRowCount(); i++) {
                        copy.set(i, versionRowId(source.get(i), begins.get(i)));
                    }
                    copy.setValueCount(root.getRowCount());
                    converted.add(copy);
                    vectors.add(copy);
                }
                return new VectorSchemaRoot(vectors.stream().map(FieldVector::getField).toList(), vectors, root.getRowCount());
            }

            private FieldVector userVector(VectorSchemaRoot root, String name, BufferAllocator allocator)
            {
                FieldVector vector = root.getVector(name);
                if (!uuidTextColumns.contains(name) || !(vector instanceof org.apache.arrow.vector.VarCharVector text)) {
                    return vector;
                }
                FieldVector uuids = UuidText.toUuids(text, allocator);
                converted.add(uuids);
                return uuids;
            }

            private void releaseConverted()
            {
                converted.forEach(FieldVector::close);
                converted.clear();
            }

            @Override
            public void close()
            {
                releaseConverted();
                if (scan != null) {
                    scan.close();
                }
            }
        };
    }
}
