package io.moraine.duckdb.ext;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.scan.InlinedVersionColumns;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import io.moraine.inline.InlineBatch;
import io.moraine.inline.InlineReader;
import io.moraine.inline.InlineScan;
import io.moraine.inline.InlineSelection;
import io.moraine.inline.InlinedTables;
import org.apache.arrow.memory.BufferAllocator;
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
    private final Schema schema;
    // Top-level UUID columns whose inlined chunks hold them as text (imports through DuckDB's default Arrow export).
    private final Set<String> uuidTextColumns = new HashSet<>();

    InlinedDataTable(MoraineCatalog catalog, InlinedTables.DataTable table)
    {
        this.catalog = catalog;
        this.table = table;
        List<Field> fields = new ArrayList<>(List.of(InlineScan.ROW_ID, InlineScan.BEGIN_SNAPSHOT, InlineScan.END_SNAPSHOT));
        Set<String> uuids = uuidColumns(catalog, table);
        for (Field field : InlinedTables.userSchema(catalog.store().latest(), table).getFields()) {
            boolean uuidAsText = uuids.contains(field.getName()) && field.getType() instanceof ArrowType.Utf8;
            fields.add(uuidAsText ? UuidText.field(field.getName()) : field);
            if (uuidAsText) {
                uuidTextColumns.add(field.getName());
            }
        }
        this.schema = new Schema(fields);
    }

    private static Set<String> uuidColumns(MoraineCatalog catalog, InlinedTables.DataTable table)
    {
        Set<String> names = new HashSet<>();
        try (CatalogSnapshot snapshot = catalog.latest()) {
            InlinedVersionColumns.of(snapshot, table.tableId(), table.schemaVersion()).ifPresent(columns -> {
                for (TableColumn column : columns.columns()) {
                    if (column.type() instanceof DuckLakeType.Primitive primitive && primitive.kind() == PrimitiveKind.UUID) {
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

    @Override
    public BatchSource open(int[] columns, BufferAllocator allocator)
    {
        List<String> userColumns = new ArrayList<>();
        for (int column : columns) {
            if (column >= SYSTEM_COLUMNS) {
                userColumns.add(schema.getFields().get(column).getName());
            }
        }
        // Every version that began at any snapshot: the table's whole contents, as DuckLake's own table holds them.
        InlineScan scan = InlineReader.scanVersion(catalog.store().latest(), table.tableId(), table.schemaVersion(),
                new InlineSelection.ForFlush(Long.MAX_VALUE), Optional.of(userColumns), CatalogTable.BATCH_ROWS, allocator);
        return new BatchSource()
        {
            private final List<FieldVector> converted = new ArrayList<>();

            @Override
            public VectorSchemaRoot next()
            {
                releaseConverted();
                if (!scan.hasNext()) {
                    return null;
                }
                InlineBatch batch = scan.next();
                VectorSchemaRoot root = batch.root();
                int users = root.getFieldVectors().size() - SYSTEM_COLUMNS;
                List<FieldVector> vectors = new ArrayList<>();
                for (int column : columns) {
                    vectors.add(switch (column) {
                        case 0 -> root.getVector(users);
                        case 1 -> root.getVector(users + 1);
                        case 2 -> root.getVector(users + 2);
                        default -> userVector(root, schema.getFields().get(column).getName(), allocator);
                    });
                }
                // A view over the scan's vectors: exporting it retains their buffers, the scan releases its own.
                return new VectorSchemaRoot(vectors.stream().map(FieldVector::getField).toList(), vectors, root.getRowCount());
            }

            private FieldVector userVector(VectorSchemaRoot root, String name, BufferAllocator allocator)
            {
                FieldVector vector = root.getVector(name);
                if (!uuidTextColumns.contains(name)) {
                    return vector;
                }
                FieldVector uuids = UuidText.toUuids((org.apache.arrow.vector.VarCharVector) vector, allocator);
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
                scan.close();
            }
        };
    }
}
