package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.ColumnType;
import io.moraine.core.metadata.MetadataTableType;
import io.moraine.core.metadata.MetadataTables;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.unsafe.types.UTF8String;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A metadata table of a moraine table, {@code lake.<schema>.<table>.snapshots} or {@code .files}, computed on the
 * driver at the table's snapshot and scanned as local rows.
 */
record MetadataTable(String name, StructType schema, List<InternalRow> rows)
        implements SupportsRead
{
    static final String SNAPSHOTS = "snapshots";
    static final String FILES = "files";

    private static final StructType SNAPSHOTS_SCHEMA = schema(
            field("snapshot_id", DataTypes.LongType, false),
            field("snapshot_time", DataTypes.TimestampType, false),
            field("schema_version", DataTypes.LongType, false),
            field("changes", DataTypes.StringType, true),
            field("author", DataTypes.StringType, true),
            field("commit_message", DataTypes.StringType, true),
            field("commit_extra_info", DataTypes.StringType, true));

    /** The core's columns of {@link MetadataTableType#FILES}, as Trino's {@code $files} has them. */
    private static final StructType FILES_SCHEMA = schema(MetadataTableType.FILES.columns().stream()
            .map(column -> field(column.name(), sparkType(column.type()), true))
            .toArray(StructField[]::new));

    /** The metadata table {@code kind} of {@code table}, read through {@code snapshot} (open at the table's snapshot). */
    static Optional<MetadataTable> of(String kind, MoraineTable table, CatalogSnapshot snapshot)
    {
        return switch (kind) {
            case SNAPSHOTS -> Optional.of(new MetadataTable(table.name() + "." + SNAPSHOTS, SNAPSHOTS_SCHEMA, snapshots(table, snapshot)));
            case FILES -> Optional.of(new MetadataTable(table.name() + "." + FILES, FILES_SCHEMA, files(table, snapshot)));
            default -> Optional.empty();
        };
    }

    /** The lake's snapshots up to this one, with what each changed: the core's rows of the snapshots table. */
    private static List<InternalRow> snapshots(MoraineTable table, CatalogSnapshot snapshot)
    {
        List<InternalRow> rows = new ArrayList<>();
        for (List<Object> row : MetadataTables.rows(MetadataTableType.SNAPSHOTS, snapshot, table.tableId(), table.settings().dataPath())) {
            rows.add(new GenericInternalRow(new Object[] {row.get(0), DateTimeUtils.instantToMicros((Instant) row.get(1)), row.get(2),
                    text(row.get(3)), text(row.get(4)), text(row.get(5)), text(row.get(6))}));
        }
        return rows;
    }

    /** The table's data files at the snapshot with the delete file that applies to each: the core's rows of the files table. */
    private static List<InternalRow> files(MoraineTable table, CatalogSnapshot snapshot)
    {
        List<InternalRow> rows = new ArrayList<>();
        for (List<Object> row : MetadataTables.rows(MetadataTableType.FILES, snapshot, table.tableId(), table.settings().dataPath())) {
            rows.add(new GenericInternalRow(row.stream().map(MetadataTable::catalyst).toArray()));
        }
        return rows;
    }

    private static org.apache.spark.sql.types.DataType sparkType(ColumnType type)
    {
        return switch (type) {
            case BIGINT -> DataTypes.LongType;
            case VARCHAR, UUID -> DataTypes.StringType;
            case BOOLEAN -> DataTypes.BooleanType;
            case TIMESTAMPTZ -> DataTypes.TimestampType;
        };
    }

    private static Object catalyst(Object value)
    {
        return switch (value) {
            case null -> null;
            case Instant instant -> DateTimeUtils.instantToMicros(instant);
            case String text -> UTF8String.fromString(text);
            case java.util.UUID uuid -> UTF8String.fromString(uuid.toString());
            default -> value;
        };
    }

    private static UTF8String text(Object value)
    {
        return value == null ? null : UTF8String.fromString(value.toString());
    }

    private static StructField field(String name, org.apache.spark.sql.types.DataType type, boolean nullable)
    {
        return new StructField(name, type, nullable, Metadata.empty());
    }

    private static StructType schema(StructField... fields)
    {
        return new StructType(fields);
    }

    @Override
    public Set<TableCapability> capabilities()
    {
        return Set.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options)
    {
        InternalRow[] values = rows.toArray(InternalRow[]::new);
        return () -> new LocalScan()
        {
            @Override
            public InternalRow[] rows()
            {
                return values;
            }

            @Override
            public StructType readSchema()
            {
                return schema;
            }
        };
    }
}
