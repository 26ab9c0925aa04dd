package io.moraine.trino;

import io.airlift.slice.Slice;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.error.MoraineException;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.function.table.AbstractConnectorTableFunction;
import io.trino.spi.function.table.Argument;
import io.trino.spi.function.table.ArgumentSpecification;
import io.trino.spi.function.table.Descriptor;
import io.trino.spi.function.table.ScalarArgument;
import io.trino.spi.function.table.ScalarArgumentSpecification;
import io.trino.spi.function.table.TableFunctionAnalysis;
import io.trino.spi.type.LongTimestampWithTimeZone;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;


import static io.trino.spi.function.table.ReturnTypeSpecification.GenericTable.GENERIC_TABLE;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code lake.system.table_changes}, {@code table_insertions} and {@code table_deletions}: DuckLake's change feed of a
 * table between two snapshots, both inclusive, each with the columns of DuckLake's function of the same name
 * ({@code table_insertions} and {@code table_deletions} put {@code snapshot_id} and {@code rowid} first on request).
 * Bounds are snapshot ids or timestamps, resolved as DuckLake resolves them (a start timestamp at the first snapshot at
 * or after it, an end timestamp at the snapshot current then); the end defaults to the snapshot a query reads when it
 * names none. Everything is checked here, before a split is planned.
 */
final class ChangeFeedFunction
        extends AbstractConnectorTableFunction
{
    static final String SCHEMA_NAME = "SCHEMA_NAME";
    static final String TABLE_NAME = "TABLE_NAME";
    static final String START_SNAPSHOT = "START_SNAPSHOT";
    static final String START_TIMESTAMP = "START_TIMESTAMP";
    static final String END_SNAPSHOT = "END_SNAPSHOT";
    static final String END_TIMESTAMP = "END_TIMESTAMP";
    /** Of table_insertions and table_deletions: true puts snapshot_id and rowid before the table's columns. */
    static final String VIRTUAL_COLUMNS = "VIRTUAL_COLUMNS";

    private final ChangeFeedOutput output;
    /** The catalog, opened on first use: functions are registered on every node, and workers never open the store. */
    private final java.util.function.Supplier<MoraineCatalog> catalog;
    private final MoraineTableColumns tableColumns;
    private final java.util.function.Function<ConnectorSession, CatalogSnapshot> defaultSnapshot;

    ChangeFeedFunction(ChangeFeedOutput output, java.util.function.Supplier<MoraineCatalog> catalog, MoraineTableColumns tableColumns,
            java.util.function.Function<ConnectorSession, CatalogSnapshot> defaultSnapshot)
    {
        super("system", output.functionName(), arguments(output), GENERIC_TABLE, description(output));
        this.output = output;
        this.catalog = catalog;
        this.tableColumns = tableColumns;
        this.defaultSnapshot = defaultSnapshot;
    }

    private static List<ArgumentSpecification> arguments(ChangeFeedOutput output)
    {
        List<ArgumentSpecification> arguments = new ArrayList<>(List.of(
                ScalarArgumentSpecification.builder().name(SCHEMA_NAME).type(VARCHAR).build(),
                ScalarArgumentSpecification.builder().name(TABLE_NAME).type(VARCHAR).build(),
                ScalarArgumentSpecification.builder().name(START_SNAPSHOT).type(BIGINT).defaultValue(null).build(),
                ScalarArgumentSpecification.builder().name(START_TIMESTAMP).type(TIMESTAMP_TZ_MICROS).defaultValue(null).build(),
                ScalarArgumentSpecification.builder().name(END_SNAPSHOT).type(BIGINT).defaultValue(null).build(),
                ScalarArgumentSpecification.builder().name(END_TIMESTAMP).type(TIMESTAMP_TZ_MICROS).defaultValue(null).build()));
        // table_changes always has them, as DuckLake's does; the other two return the table's columns alone unless asked.
        if (output != ChangeFeedOutput.CHANGES) {
            arguments.add(ScalarArgumentSpecification.builder().name(VIRTUAL_COLUMNS).type(BOOLEAN).defaultValue(false).build());
        }
        return arguments;
    }

    private static String description(ChangeFeedOutput output)
    {
        return switch (output) {
            case CHANGES -> "The rows a table's snapshots inserted, deleted and updated between two snapshots, as DuckLake's table_changes";
            case INSERTIONS -> "The rows a table's snapshots inserted between two snapshots, as DuckLake's table_insertions";
            case DELETIONS -> "The rows a table's snapshots deleted between two snapshots, as DuckLake's table_deletions";
        };
    }

    @Override
    public TableFunctionAnalysis analyze(ConnectorSession session, ConnectorTransactionHandle transaction, Map<String, Argument> arguments,
            ConnectorAccessControl accessControl)
    {
        String schema = text(arguments, SCHEMA_NAME);
        String table = text(arguments, TABLE_NAME);
        Optional<Long> startSnapshot = value(arguments, START_SNAPSHOT, Long.class);
        Optional<Instant> startTimestamp = value(arguments, START_TIMESTAMP, LongTimestampWithTimeZone.class).map(ChangeFeedFunction::instant);
        Optional<Long> endSnapshot = value(arguments, END_SNAPSHOT, Long.class);
        Optional<Instant> endTimestamp = value(arguments, END_TIMESTAMP, LongTimestampWithTimeZone.class).map(ChangeFeedFunction::instant);
        boolean virtualColumns = virtualColumns(arguments);
        if (startSnapshot.isPresent() == startTimestamp.isPresent()) {
            throw invalid((startSnapshot.isPresent() ? "both " : "neither ") + "start_snapshot " + (startSnapshot.isPresent() ? "and" : "nor")
                    + " start_timestamp was given: give exactly one of them, the first snapshot of the change feed (an id, or a time: the first snapshot at or after it)");
        }
        if (endSnapshot.isPresent() && endTimestamp.isPresent()) {
            throw invalid("both end_snapshot and end_timestamp were given: give at most one of them, the last snapshot of the change feed "
                    + "(an id, or a time: the snapshot current then); without either it ends at the current snapshot");
        }
        MoraineCatalog catalog = this.catalog.get();
        try (CatalogSnapshot end = endSnapshot.map(catalog::at).or(() -> endTimestamp.map(catalog::asOf)).orElseGet(() -> defaultSnapshot.apply(session))) {
            SchemaTableName name = new SchemaTableName(schema, table);
            long tableId = end.model().table(schema, table).orElseThrow(() -> missing(end, schema, table)).id();
            long start = startSnapshot.orElseGet(() -> ChangeFeed.startAtOrAfter(catalog, startTimestamp.orElseThrow()));
            // Refuses a start that is not a snapshot (expired, or after the newest); a start after the end is an empty feed.
            ChangeFeed.forTable(end, tableId, start);
            List<MoraineColumnHandle> columns = tableColumns.of(new MoraineTableHandle(name, tableId, end.id()), end).handles();
            accessControl.checkCanSelectFromColumns(null, name, new LinkedHashSet<>(columns.stream().map(MoraineColumnHandle::name).toList()));
            ChangeFeedTableHandle scan = ChangeFeedTableHandle.of(output, virtualColumns, name, tableId, start, end.id(), columns);
            return TableFunctionAnalysis.builder()
                    .returnedType(new Descriptor(scan.allColumns().stream()
                            .map(column -> new Descriptor.Field(column.name(), Optional.of(column.type())))
                            .toList()))
                    .handle(new ChangeFeedFunctionHandle(scan))
                    .build();
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    /** Whether the call asked for snapshot_id and rowid before the table's columns (table_changes has no such argument). */
    private boolean virtualColumns(Map<String, Argument> arguments)
    {
        if (!arguments.containsKey(VIRTUAL_COLUMNS)) {
            return false;
        }
        return value(arguments, VIRTUAL_COLUMNS, Boolean.class)
                .orElseThrow(() -> invalid("virtual_columns is NULL: give true for snapshot_id and rowid before the table's columns, or false (the default) for "
                        + "the table's columns alone, as DuckLake's ducklake_" + output.functionName() + " returns them"));
    }

    private TrinoException missing(CatalogSnapshot end, String schema, String table)
    {
        String where = end.model().schema(schema).isPresent()
                ? "table " + schema + "." + table + " does not exist"
                : "schema " + schema + " does not exist";
        return new TrinoException(MoraineErrorCode.MORAINE_NOT_FOUND, output.functionName() + ": " + where + " at snapshot " + end.id()
                + ", the end of the change feed; the feed reads the table as its last snapshot has it, so end at a snapshot where it exists");
    }

    private TrinoException invalid(String message)
    {
        return new TrinoException(MoraineErrorCode.MORAINE_INVALID_ARGUMENT, output.functionName() + ": " + message);
    }

    private String text(Map<String, Argument> arguments, String name)
    {
        return value(arguments, name, Slice.class).map(Slice::toStringUtf8)
                .orElseThrow(() -> invalid(name.toLowerCase(java.util.Locale.ROOT) + " is NULL: name the table whose changes to read"));
    }

    private static <T> Optional<T> value(Map<String, Argument> arguments, String name, Class<T> type)
    {
        Object value = ((ScalarArgument) arguments.get(name)).getValue();
        return Optional.ofNullable(value).map(type::cast);
    }

    /** A timestamp argument, exact to the microsecond (snapshot times have microseconds). */
    private static Instant instant(LongTimestampWithTimeZone timestamp)
    {
        return Instant.ofEpochMilli(timestamp.getEpochMillis()).plusNanos(timestamp.getPicosOfMilli() / 1000);
    }
}
