package io.moraine.core.keyspace;

import io.moraine.core.row.Column;
import io.moraine.core.row.ColumnType;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.CorruptionException;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * Encodes a catalog row as a store value: {@code [encoding version = 1][column count: varint][cells...]}, each cell
 * a type byte (0 NULL, 1 BIGINT, 2 VARCHAR, 3 FALSE, 4 TRUE, 5 TIMESTAMPTZ, 6 UUID) and its payload. A later
 * encoding version may append columns; a reader fills columns missing from an older value with NULL.
 */
public final class RowValueCodec
{
    public static final int ENCODING_VERSION = 1;

    private static final int NULL = 0;
    private static final int BIGINT = 1;
    private static final int VARCHAR = 2;
    private static final int FALSE = 3;
    private static final int TRUE = 4;
    private static final int TIMESTAMPTZ = 5;
    private static final int UUID_CELL = 6;

    private RowValueCodec() {}

    public static byte[] encode(Row row)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        out.write(ENCODING_VERSION);
        List<Object> values = row.values();
        Varints.write(out, values.size());
        for (Object value : values) {
            switch (value) {
                case null -> out.write(NULL);
                case Long l -> {
                    out.write(BIGINT);
                    writeLong(out, l);
                }
                case String s -> {
                    out.write(VARCHAR);
                    Varints.writeString(out, s);
                }
                case Boolean b -> out.write(b ? TRUE : FALSE);
                case Instant instant -> {
                    out.write(TIMESTAMPTZ);
                    writeLong(out, Micros.of(instant));
                }
                case UUID uuid -> {
                    out.write(UUID_CELL);
                    writeLong(out, uuid.getMostSignificantBits());
                    writeLong(out, uuid.getLeastSignificantBits());
                }
                default -> throw new IllegalArgumentException("not a catalog cell: " + value.getClass());
            }
        }
        return out.toByteArray();
    }

    /**
     * Decodes a value stored under {@code key} (which also gives the row's {@link Row#duplicate() duplicate number});
     * any malformation is a {@link CorruptionException} naming the key.
     */
    public static Row decode(TableKind kind, byte[] key, byte[] value)
    {
        try {
            ByteBuffer in = ByteBuffer.wrap(value);
            int version = in.get() & 0xFF;
            if (version != ENCODING_VERSION) {
                throw corrupt(kind, key, "unknown row encoding version " + version);
            }
            int count = Varints.read(in);
            List<Column> columns = kind.columns();
            if (count > columns.size()) {
                throw corrupt(kind, key, "value has " + count + " cells but " + kind.tableName() + " has " + columns.size() + " columns");
            }
            Object[] cells = new Object[columns.size()];
            for (int i = 0; i < count; i++) {
                cells[i] = readCell(in, kind, key, columns.get(i));
            }
            if (in.hasRemaining()) {
                throw corrupt(kind, key, in.remaining() + " trailing bytes after the last cell");
            }
            Row row = Row.of(kind, cells);
            if (!kind.allowsDuplicateKeys()) {
                return row;
            }
            java.util.OptionalLong duplicate = RowKeys.duplicateNumber(key, row);
            if (duplicate.isEmpty()) {
                throw corrupt(kind, key, "the key is neither the row's key cells nor those followed by a duplicate number");
            }
            return row.withDuplicate(duplicate.getAsLong());
        }
        catch (BufferUnderflowException | IllegalArgumentException e) {
            throw corrupt(kind, key, "value is truncated or malformed (" + e + ")");
        }
    }

    private static Object readCell(ByteBuffer in, TableKind kind, byte[] key, Column column)
    {
        int type = in.get() & 0xFF;
        Object value = switch (type) {
            case NULL -> null;
            case BIGINT -> in.getLong();
            case VARCHAR -> Varints.readString(in);
            case FALSE -> false;
            case TRUE -> true;
            case TIMESTAMPTZ -> Micros.toInstant(in.getLong());
            case UUID_CELL -> new UUID(in.getLong(), in.getLong());
            default -> throw corrupt(kind, key, "unknown cell type byte " + type + " in column " + column.name());
        };
        if (value != null && !column.type().javaType().isInstance(value)) {
            throw corrupt(kind, key, "column " + column.name() + " is " + column.type() + " but holds a " + describe(type));
        }
        return value;
    }

    private static String describe(int type)
    {
        return switch (type) {
            case BIGINT -> ColumnType.BIGINT.name();
            case VARCHAR -> ColumnType.VARCHAR.name();
            case FALSE, TRUE -> ColumnType.BOOLEAN.name();
            case TIMESTAMPTZ -> ColumnType.TIMESTAMPTZ.name();
            default -> ColumnType.UUID.name();
        };
    }

    private static CorruptionException corrupt(TableKind kind, byte[] key, String problem)
    {
        return new CorruptionException("corrupt " + kind.tableName() + " row under key " + HexFormat.of().formatHex(key)
                + ": " + problem + ". The store was damaged or written by another program; restore it from a checkpoint "
                + "or backup (nothing else was changed).");
    }

    private static void writeLong(ByteArrayOutputStream out, long value)
    {
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.write((int) (value >>> shift));
        }
    }
}
