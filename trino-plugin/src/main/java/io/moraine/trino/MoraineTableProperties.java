package io.moraine.trino;

import io.moraine.core.write.PartitionField;
import io.moraine.core.write.SortField;
import io.trino.spi.TrinoException;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.type.ArrayType;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.trino.spi.StandardErrorCode.INVALID_TABLE_PROPERTY;
import static io.trino.spi.session.PropertyMetadata.integerProperty;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * The table properties of {@code CREATE TABLE ... WITH (...)}: {@code partitioned_by} (DuckLake's partition spec:
 * {@code c}, {@code year(c)}, {@code month(c)}, {@code day(c)}, {@code hour(c)}, {@code bucket(c, n)}),
 * {@code sorted_by} ({@code c [ASC|DESC] [NULLS FIRST|LAST]}) and {@code data_inlining_row_limit} (the table's
 * DuckLake option).
 */
final class MoraineTableProperties
{
    static final String PARTITIONED_BY = "partitioned_by";
    static final String SORTED_BY = "sorted_by";
    static final String DATA_INLINING_ROW_LIMIT = "data_inlining_row_limit";

    private static final Pattern TRANSFORM = Pattern.compile("(year|month|day|hour)\\s*\\(\\s*(\\w+)\\s*\\)");
    private static final Pattern BUCKET = Pattern.compile("bucket\\s*\\(\\s*(\\w+)\\s*,\\s*(\\d+)\\s*\\)");
    private static final Pattern IDENTITY = Pattern.compile("\\w+");
    private static final Pattern SORT = Pattern.compile("(\\w+)(?:\\s+(asc|desc))?(?:\\s+nulls\\s+(first|last))?");

    private MoraineTableProperties() {}

    static List<PropertyMetadata<?>> properties()
    {
        return List.of(
                stringList(PARTITIONED_BY, "Partition keys: column, year(column), month(column), day(column), hour(column) or bucket(column, n)"),
                stringList(SORTED_BY, "Sort keys: column [ASC|DESC] [NULLS FIRST|LAST]"),
                integerProperty(DATA_INLINING_ROW_LIMIT, "Inserts of at most this many rows are stored in the catalog instead of a data file "
                        + "(the table's DuckLake option data_inlining_row_limit; unset keeps the schema's or lake's)", null, false));
    }

    private static PropertyMetadata<List<String>> stringList(String name, String description)
    {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Class<List<String>> type = (Class) List.class;
        return new PropertyMetadata<>(name, description, new ArrayType(VARCHAR), type, List.of(), false,
                value -> ((Collection<?>) value).stream().map(item -> ((String) item).strip().toLowerCase(Locale.ROOT)).toList(),
                value -> value);
    }

    static List<PartitionField> partitioning(Map<String, Object> properties)
    {
        return strings(properties, PARTITIONED_BY).stream().map(MoraineTableProperties::partitionField).toList();
    }

    static List<SortField> sortOrder(Map<String, Object> properties)
    {
        return strings(properties, SORTED_BY).stream().map(MoraineTableProperties::sortField).toList();
    }

    static Optional<Integer> inliningRowLimit(Map<String, Object> properties)
    {
        Optional<Integer> limit = Optional.ofNullable((Integer) properties.get(DATA_INLINING_ROW_LIMIT));
        if (limit.isPresent() && limit.get() < 0) {
            throw new TrinoException(INVALID_TABLE_PROPERTY, DATA_INLINING_ROW_LIMIT + " is " + limit.get() + "; give 0 (no inlining) or more rows");
        }
        return limit;
    }

    static PartitionField partitionField(String key)
    {
        Matcher transform = TRANSFORM.matcher(key);
        if (transform.matches()) {
            return PartitionField.of(transform.group(2), transform.group(1));
        }
        Matcher bucket = BUCKET.matcher(key);
        if (bucket.matches()) {
            return PartitionField.of(bucket.group(1), "bucket(" + bucket.group(2) + ")");
        }
        if (IDENTITY.matcher(key).matches()) {
            return PartitionField.identity(key);
        }
        throw new TrinoException(INVALID_TABLE_PROPERTY, PARTITIONED_BY + " key '" + key + "' is not a partition key; write column, year(column), "
                + "month(column), day(column), hour(column) or bucket(column, n)");
    }

    /** Trino's spelling of a partition field, the inverse of {@link #partitionField}. */
    static String partitionKeyText(String column, io.moraine.core.catalog.PartitionTransform transform)
    {
        return switch (transform.kind()) {
            case IDENTITY -> column;
            case BUCKET -> "bucket(" + column + ", " + transform.buckets() + ")";
            default -> transform.kind().name().toLowerCase(Locale.ROOT) + "(" + column + ")";
        };
    }

    /** What {@code SHOW CREATE TABLE} shows of a table: its partition keys, sort keys and own inlining limit, where set. */
    static Map<String, Object> of(io.moraine.core.catalog.TableDefinition table, Optional<String> inliningRowLimit)
    {
        Map<String, Object> properties = new java.util.LinkedHashMap<>();
        table.partitionSpec().ifPresent(spec -> properties.put(PARTITIONED_BY, spec.keys().stream()
                .map(key -> partitionKeyText(table.columns().byId().get(key.columnId()).name(), key.transform()))
                .toList()));
        table.sortSpec().ifPresent(spec -> properties.put(SORTED_BY, spec.keys().stream()
                .map(key -> key.expression() + (key.descending() ? " DESC" : "") + (key.nullsFirst() ? " NULLS FIRST" : ""))
                .toList()));
        inliningRowLimit.ifPresent(limit -> properties.put(DATA_INLINING_ROW_LIMIT, Integer.parseInt(limit)));
        return properties;
    }

    static SortField sortField(String key)
    {
        Matcher sort = SORT.matcher(key.replaceAll("\\s+", " "));
        if (!sort.matches()) {
            throw new TrinoException(INVALID_TABLE_PROPERTY, SORTED_BY + " key '" + key + "' is not a sort key; write column [ASC|DESC] [NULLS FIRST|LAST]");
        }
        boolean descending = "desc".equals(sort.group(2));
        // DuckDB's default: NULLS LAST whatever the direction.
        boolean nullsFirst = "first".equals(sort.group(3));
        return new SortField(sort.group(1), "duckdb", descending, nullsFirst);
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Map<String, Object> properties, String name)
    {
        Object value = properties.get(name);
        return value == null ? List.of() : (List<String>) value;
    }
}
