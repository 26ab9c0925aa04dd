package io.moraine.duckdb.ext;

import io.moraine.core.row.Column;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
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
import java.util.function.IntUnaryOperator;

/** One ducklake_* table, every row (current and history) as the core serves it, in batches of Arrow columns. */
final class CatalogTable
        implements ServedTable
{
    static final int BATCH_ROWS = 2048;

    private final AttachedStore store;
    private final TableKind kind;
    private final Schema schema;
    private final BigintRange.Recent committedRanges = new BigintRange.Recent();
    private final int leadingKeyColumn;

    CatalogTable(AttachedStore store, TableKind kind)
    {
        this.store = store;
        this.kind = kind;
        this.schema = new Schema(kind.columns().stream().map(CatalogTable::field).toList());
        this.leadingKeyColumn = LeadingKeyColumn.of(kind);
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
        Map<String, String> metadata = column.type() == io.moraine.core.row.ColumnType.UUID
                ? Map.of("ARROW:extension:name", "arrow.uuid", "ARROW:extension:metadata", "")
                : null;
        return new Field(column.name(), new FieldType(true, type, null, metadata), null);
    }

    /** The rows as {@code transaction} sees them (a row's DuckDB row id is its position there), or as committed. */
    @Override
    public BatchSource open(AttachTransaction transaction, int[] columns, boolean rowIds, ScanFilter filter, BufferAllocator allocator)
    {
        StagedCatalogRows rows = rowsSeenBy(transaction);
        java.util.function.IntFunction<Row> rowAt = filter.isEmpty() ? rows::at : position -> {
            Row row = rows.at(position);
            return row != null && filter.test(row::get) ? row : null;
        };
        return new PositionalBatchSource<Row>(schema, columns, rowIds, allocator, rows::size, rowAt, candidates(rows, filter), CatalogTable::writer);
    }

    /** Positions {@code filter} can hold at: narrowed by binary search when it bounds the column the rows read are served ascending by. */
    private IntUnaryOperator candidates(StagedCatalogRows rows, ScanFilter filter)
    {
        if (leadingKeyColumn < 0 || filter.isEmpty() || rows.changedRead()) {
            return IntUnaryOperator.identity();
        }
        long[] bounds = filter.bounds(leadingKeyColumn);
        if (bounds[0] == Long.MIN_VALUE && bounds[1] == Long.MAX_VALUE) {
            return IntUnaryOperator.identity();
        }
        return LeadingKeyColumn.candidates(rows.read(), leadingKeyColumn, bounds);
    }

    @Override
    public long[] bigintRange(AttachTransaction transaction, int column)
    {
        if (kind.columns().get(column).type() != io.moraine.core.row.ColumnType.BIGINT) {
            return null;
        }
        StagedCatalogRows rows = rowsSeenBy(transaction);
        if (rows.changed()) {
            return BigintRange.of(rows.size(), rows::at, column);
        }
        if (column == leadingKeyColumn) {
            return LeadingKeyColumn.range(rows.read(), column);
        }
        return committedRanges.get(rows.read(), column);
    }

    /** The table as {@code transaction} sees it, or as committed when it is null. */
    private StagedCatalogRows rowsSeenBy(AttachTransaction transaction)
    {
        return transaction != null ? transaction.catalogRows(kind) : new StagedCatalogRows(kind, store.committedRows(null, kind));
    }

    /** The writer of {@code column}'s cells into {@code vector}, chosen once per scan rather than per cell. */
    private static PositionalBatchSource.ColumnWriter<Row> writer(FieldVector vector, int column)
    {
        CellWriter cells = switch (vector) {
            case BigIntVector bigint -> (index, value) -> bigint.setSafe(index, (Long) value);
            case VarCharVector varchar -> (index, value) -> varchar.setSafe(index, ((String) value).getBytes(StandardCharsets.UTF_8));
            case BitVector bit -> (index, value) -> bit.setSafe(index, (Boolean) value ? 1 : 0);
            case FixedSizeBinaryVector binary -> {
                ByteBuffer uuidBytes = ByteBuffer.allocate(16);
                yield (index, value) -> {
                    UUID uuid = (UUID) value;
                    binary.setSafe(index, uuidBytes.putLong(0, uuid.getMostSignificantBits()).putLong(8, uuid.getLeastSignificantBits()).array());
                };
            }
            case TimeStampMicroTZVector timestamp -> (index, value) -> {
                Instant instant = (Instant) value;
                timestamp.setSafe(index, Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000));
            };
            default -> throw new IllegalStateException("no Arrow writer for " + vector.getClass().getSimpleName());
        };
        return (index, row) -> {
            Object value = row.get(column);
            if (value == null) {
                vector.setNull(index);
            }
            else {
                cells.write(index, value);
            }
        };
    }

    /** Writes a non-null cell at {@code index}. */
    @FunctionalInterface
    private interface CellWriter
    {
        void write(int index, Object value);
    }
}
