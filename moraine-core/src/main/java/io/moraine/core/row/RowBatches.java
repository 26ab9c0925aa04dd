package io.moraine.core.row;

import io.moraine.core.error.CorruptionException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.moraine.core.io.WireFormat.readString;
import static io.moraine.core.io.WireFormat.writeString;

/**
 * Rows of catalog facts (a metadata table's rows, typed by {@link ColumnType}) cut into batches of bounded size and
 * encoded, for an engine to ship them to a worker that has no catalog; and decoded there.
 */
public final class RowBatches
{
    /** Encoded rows: every column of each row in turn. */
    public record Batch(byte[] bytes, int rowCount) {}

    private RowBatches() {}

    /**
     * {@code rows} of {@code columns} in batches of at most {@code maxBytes} each (a row larger than that is a batch of
     * its own); at least one batch, empty when there are no rows.
     */
    public static List<Batch> encode(List<Column> columns, Iterable<List<Object>> rows, long maxBytes)
    {
        List<Batch> batches = new ArrayList<>();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        int count = 0;
        try {
            for (List<Object> row : rows) {
                for (int i = 0; i < columns.size(); i++) {
                    writeValue(out, columns.get(i).type(), row.get(i));
                }
                count++;
                if (bytes.size() >= maxBytes) {
                    batches.add(new Batch(bytes.toByteArray(), count));
                    bytes.reset();
                    count = 0;
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (count > 0 || batches.isEmpty()) {
            batches.add(new Batch(bytes.toByteArray(), count));
        }
        return batches;
    }

    /** The rows of a batch {@link #encode} made of {@code columns}. */
    public static List<List<Object>> decode(List<Column> columns, Batch batch)
    {
        List<List<Object>> rows = new ArrayList<>(batch.rowCount());
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(batch.bytes()));
        try {
            for (int row = 0; row < batch.rowCount(); row++) {
                List<Object> values = new ArrayList<>(columns.size());
                for (Column column : columns) {
                    values.add(readValue(in, column.type()));
                }
                rows.add(values);
            }
            if (in.available() > 0) {
                throw new CorruptionException("a batch of encoded rows holds more than its " + batch.rowCount() + " rows");
            }
        }
        catch (IOException e) {
            throw new CorruptionException("a batch of encoded rows is cut short: " + e.getMessage(), e);
        }
        return rows;
    }

    private static void writeValue(DataOutputStream out, ColumnType type, Object value)
            throws IOException
    {
        out.writeBoolean(value != null);
        if (value == null) {
            return;
        }
        switch (type) {
            case BIGINT -> out.writeLong((Long) value);
            case VARCHAR -> writeString(out, (String) value);
            case BOOLEAN -> out.writeBoolean((Boolean) value);
            case TIMESTAMPTZ -> {
                Instant instant = (Instant) value;
                out.writeLong(instant.getEpochSecond());
                out.writeInt(instant.getNano());
            }
            case UUID -> {
                UUID uuid = (UUID) value;
                out.writeLong(uuid.getMostSignificantBits());
                out.writeLong(uuid.getLeastSignificantBits());
            }
        }
    }

    private static Object readValue(DataInputStream in, ColumnType type)
            throws IOException
    {
        if (!in.readBoolean()) {
            return null;
        }
        return switch (type) {
            case BIGINT -> in.readLong();
            case VARCHAR -> readString(in);
            case BOOLEAN -> in.readBoolean();
            case TIMESTAMPTZ -> Instant.ofEpochSecond(in.readLong(), in.readInt());
            case UUID -> new UUID(in.readLong(), in.readLong());
        };
    }
}
