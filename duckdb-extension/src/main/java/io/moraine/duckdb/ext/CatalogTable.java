package io.moraine.duckdb.ext;

import io.moraine.core.catalog.Column;
import io.moraine.core.catalog.TableKind;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** One ducklake_* table, every row (current and history) as the core serves it, in batches of Arrow columns. */
final class CatalogTable
        implements ServedTable
{
    static final int BATCH_ROWS = 2048;

    private final AttachedStore store;
    private final TableKind kind;
    private final Schema schema;

    CatalogTable(AttachedStore store, TableKind kind)
    {
        this.store = store;
        this.kind = kind;
        this.schema = new Schema(kind.columns().stream().map(CatalogTable::field).toList());
    }

    @Override
    public String name()
    {
        return kind.tableName();
    }

    TableKind kind()
    {
        return kind;
    }

    @Override
    public Schema schema()
    {
        return schema;
    }

    /** DuckLake's column types as Arrow: UUIDs carry the arrow.uuid extension, timestamps are UTC microseconds. */
    private static Field field(Column column)
    {
        ArrowType type = switch (column.type()) {
            case BIGINT -> new ArrowType.Int(64, true);
            case VARCHAR -> ArrowType.Utf8.INSTANCE;
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case UUID -> new ArrowType.FixedSizeBinary(16);
            case TIMESTAMPTZ -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
        };
        Map<String, String> metadata = column.type() == io.moraine.core.catalog.ColumnType.UUID
                ? Map.of("ARROW:extension:name", "arrow.uuid", "ARROW:extension:metadata", "")
                : null;
        return new Field(column.name(), new FieldType(true, type, null, metadata), null);
    }

    /** The rows as {@code transaction} sees them (a row's DuckDB row id is its position there), or as committed. */
    @Override
    public BatchSource open(AttachTransaction transaction, int[] columns, boolean rowIds, BufferAllocator allocator)
    {
        StagedCatalogRows rows = transaction != null ? transaction.catalogRows(kind) : new StagedCatalogRows(kind, store.committedRows(null, kind));
        return new PositionalBatchSource<io.moraine.core.catalog.Row>(schema, columns, rowIds, allocator, rows::size, rows::at,
                (vector, index, row, column) -> set(vector, index, row.get(column)));
    }

    private static void set(FieldVector vector, int index, Object value)
    {
        if (value == null) {
            vector.setNull(index);
            return;
        }
        switch (vector) {
            case BigIntVector bigint -> bigint.setSafe(index, (Long) value);
            case VarCharVector varchar -> varchar.setSafe(index, ((String) value).getBytes(StandardCharsets.UTF_8));
            case BitVector bit -> bit.setSafe(index, (Boolean) value ? 1 : 0);
            case FixedSizeBinaryVector binary -> {
                UUID uuid = (UUID) value;
                binary.setSafe(index, ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).array());
            }
            case TimeStampMicroTZVector timestamp -> {
                Instant instant = (Instant) value;
                timestamp.setSafe(index, Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000));
            }
            default -> throw new IllegalStateException("no Arrow writer for " + vector.getClass().getSimpleName());
        }
    }
}
