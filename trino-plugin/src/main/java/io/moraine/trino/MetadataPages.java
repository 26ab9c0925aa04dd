package io.moraine.trino;

import io.airlift.slice.Slices;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.Column;
import io.moraine.core.row.ColumnType;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.metadata.MetadataTables;
import io.trino.spi.Page;
import io.trino.spi.PageBuilder;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.FixedPageSource;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * The rows of a metadata table, as the core produces them: read on the coordinator ({@link #splits}) and shipped in the
 * splits, so that a worker never opens the catalog, then decoded there into Trino pages of the projected columns.
 */
final class MetadataPages
{
    private static final int ROWS_PER_PAGE = 1024;

    private MetadataPages() {}

    static Type trinoType(ColumnType type)
    {
        return switch (type) {
            case BIGINT -> BIGINT;
            case VARCHAR -> VARCHAR;
            case BOOLEAN -> BOOLEAN;
            case TIMESTAMPTZ -> TIMESTAMP_TZ_MICROS;
            case UUID -> UuidType.UUID;
        };
    }

    /**
     * The rows of a metadata table, read on the coordinator (they are catalog facts), cut into splits of at most
     * {@code maxBytes} of encoded rows each (a row larger than that is a split of its own); at least one split.
     */
    static List<MoraineMetadataSplit> splits(MoraineCatalogHolder catalog, MoraineMetadataTableHandle table, long maxBytes)
    {
        List<Column> columns = table.columns();
        List<MoraineMetadataSplit> splits = new ArrayList<>();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        int rows = 0;
        for (List<Object> row : rows(catalog, table)) {
            try {
                for (int i = 0; i < columns.size(); i++) {
                    writeValue(out, columns.get(i).type(), row.get(i));
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            rows++;
            if (bytes.size() >= maxBytes) {
                splits.add(new MoraineMetadataSplit(bytes.toByteArray(), rows));
                bytes.reset();
                rows = 0;
            }
        }
        if (rows > 0 || splits.isEmpty()) {
            splits.add(new MoraineMetadataSplit(bytes.toByteArray(), rows));
        }
        return splits;
    }

    /** The rows of a metadata table, as the core produces them from the catalog. */
    private static List<List<Object>> rows(MoraineCatalogHolder catalog, MoraineMetadataTableHandle table)
    {
        if (table.rawKind().isPresent()) {
            List<List<Object>> rows = new ArrayList<>();
            try (RowCursor cursor = MetadataTables.rawRows(catalog.catalog(), table.rawKind().get())) {
                while (cursor.hasNext()) {
                    Row row = cursor.next();
                    rows.add(row.values());
                }
            }
            return rows;
        }
        try (CatalogSnapshot snapshot = catalog.catalog().at(table.snapshotId())) {
            return MetadataTables.rows(table.type().orElseThrow(), snapshot, table.tableId(), catalog.dataPathOverride());
        }
    }

    /** The pages of the projected columns of a split's rows, decoded from the split alone (no catalog is opened). */
    static ConnectorPageSource open(MoraineMetadataTableHandle table, MoraineMetadataSplit split, List<MoraineMetadataColumnHandle> columns)
    {
        List<Column> tableColumns = table.columns();
        List<List<Object>> rows = new ArrayList<>(split.getRowCount());
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(split.rows()));
        try {
            for (int row = 0; row < split.getRowCount(); row++) {
                List<Object> values = new ArrayList<>(tableColumns.size());
                for (Column column : tableColumns) {
                    values.add(readValue(in, column.type()));
                }
                rows.add(values);
            }
            if (in.available() > 0) {
                throw new IllegalStateException("the split of a metadata table holds more than its " + split.getRowCount() + " rows");
            }
        }
        catch (IOException e) {
            throw new IllegalStateException("the split of a metadata table is cut short: " + e.getMessage(), e);
        }
        return new FixedPageSource(pages(tableColumns, rows, columns));
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
            case VARCHAR -> {
                byte[] text = ((String) value).getBytes(StandardCharsets.UTF_8);
                out.writeInt(text.length);
                out.write(text);
            }
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
            case VARCHAR -> new String(in.readNBytes(in.readInt()), StandardCharsets.UTF_8);
            case BOOLEAN -> in.readBoolean();
            case TIMESTAMPTZ -> Instant.ofEpochSecond(in.readLong(), in.readInt());
            case UUID -> new UUID(in.readLong(), in.readLong());
        };
    }

    private static List<Page> pages(List<Column> tableColumns, List<List<Object>> rows, List<MoraineMetadataColumnHandle> columns)
    {
        List<Type> types = columns.stream().map(MoraineMetadataColumnHandle::type).toList();
        List<Page> pages = new ArrayList<>();
        PageBuilder builder = new PageBuilder(types);
        for (List<Object> row : rows) {
            builder.declarePosition();
            for (int i = 0; i < columns.size(); i++) {
                MoraineMetadataColumnHandle column = columns.get(i);
                write(tableColumns.get(column.index()).type(), row.get(column.index()), builder.getBlockBuilder(i));
            }
            if (builder.getPositionCount() >= ROWS_PER_PAGE) {
                pages.add(builder.build());
                builder.reset();
            }
        }
        if (!builder.isEmpty() || pages.isEmpty()) {
            pages.add(builder.build());
        }
        return pages;
    }

    private static void write(ColumnType type, Object value, BlockBuilder block)
    {
        if (value == null) {
            block.appendNull();
            return;
        }
        switch (type) {
            case BIGINT -> BIGINT.writeLong(block, (Long) value);
            case VARCHAR -> VARCHAR.writeSlice(block, Slices.utf8Slice((String) value));
            case BOOLEAN -> BOOLEAN.writeBoolean(block, (Boolean) value);
            case TIMESTAMPTZ -> {
                Instant instant = (Instant) value;
                TIMESTAMP_TZ_MICROS.writeObject(block, LongTimestampWithTimeZone.fromEpochMillisAndFraction(instant.toEpochMilli(),
                        (instant.getNano() % 1_000_000) * 1_000, UTC_KEY));
            }
            case UUID -> UuidType.UUID.writeSlice(block, UuidType.javaUuidToTrinoUuid((UUID) value));
        }
    }
}
