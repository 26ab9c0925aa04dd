package io.moraine.trino;

import io.airlift.slice.Slices;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.Column;
import io.moraine.core.row.ColumnType;
import io.moraine.core.row.Row;
import io.moraine.core.row.RowBatches;
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
        return RowBatches.encode(table.columns(), rows(catalog, table), maxBytes).stream()
                .map(batch -> new MoraineMetadataSplit(batch.bytes(), batch.rowCount()))
                .toList();
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
        List<List<Object>> rows = RowBatches.decode(table.columns(), new RowBatches.Batch(split.rows(), split.getRowCount()));
        return new FixedPageSource(pages(table.columns(), rows, columns));
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
