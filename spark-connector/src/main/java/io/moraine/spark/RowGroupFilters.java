package io.moraine.spark;

import io.moraine.core.scan.ColumnDomain;
import io.moraine.core.scan.FieldIds;
import io.moraine.core.scan.ValueRange;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Or;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The scan's column domains (the core's {@link ColumnDomain}s, by column id) as Spark Parquet filters on one file's
 * own column names, found by field id in that file's footer, so that Spark's reader skips the row groups (and pages)
 * whose statistics rule them out. Only integer and string values: their Parquet statistics order as DuckDB's and
 * Spark's values do (a filter Spark's {@code ParquetFilters} cannot apply to the file's type it leaves out itself).
 * Pruning only: Spark still evaluates every predicate on the rows read.
 */
final class RowGroupFilters
{
    private static final String PLACEHOLDER = "?";

    private RowGroupFilters() {}

    /**
     * The scan's filters by column id, each on a placeholder column name (the core's domains are not serializable, Spark's
     * filters are): only the domains whose values all have a usable type.
     */
    static HashMap<Long, Filter> byColumnId(Map<Long, ColumnDomain> domains)
    {
        HashMap<Long, Filter> filters = new HashMap<>();
        domains.forEach((columnId, domain) -> {
            if (domain.ranges().stream().allMatch(range -> usable(range.low()) && usable(range.high()))) {
                filter(PLACEHOLDER, domain).ifPresent(filter -> filters.put(columnId, filter));
            }
        });
        return filters;
    }

    /** The filters of {@link #byColumnId} on the names {@code fileSchema} gives their columns (by field id); a column the file lacks is left out. */
    static Filter[] forFile(Map<Long, Filter> byColumnId, MessageType fileSchema)
    {
        List<Filter> filters = new ArrayList<>();
        byColumnId.forEach((columnId, filter) -> FieldIds.find(fileSchema, columnId).filter(Type::isPrimitive)
                .ifPresent(field -> filters.add(named(filter, field.getName()))));
        return filters.toArray(Filter[]::new);
    }

    private static Filter named(Filter filter, String name)
    {
        return switch (filter) {
            case And and -> new And(named(and.left(), name), named(and.right(), name));
            case Or or -> new Or(named(or.left(), name), named(or.right(), name));
            case EqualTo equal -> new EqualTo(name, equal.value());
            case GreaterThan greater -> new GreaterThan(name, greater.value());
            case GreaterThanOrEqual greater -> new GreaterThanOrEqual(name, greater.value());
            case LessThan less -> new LessThan(name, less.value());
            case LessThanOrEqual less -> new LessThanOrEqual(name, less.value());
            case IsNull isNull -> new IsNull(name);
            case IsNotNull isNotNull -> new IsNotNull(name);
            default -> throw new IllegalArgumentException("not a row-group filter of moraine's: " + filter);
        };
    }

    private static boolean usable(Optional<Object> value)
    {
        return value.isEmpty() || value.get() instanceof Long || value.get() instanceof Integer || value.get() instanceof Short || value.get() instanceof Byte
                || value.get() instanceof String;
    }

    private static Optional<Filter> filter(String name, ColumnDomain domain)
    {
        Filter any = null;
        for (ValueRange range : domain.ranges()) {
            any = any == null ? filter(name, range) : new Or(any, filter(name, range));
        }
        if (domain.nullAllowed()) {
            any = any == null ? new IsNull(name) : new Or(any, new IsNull(name));
        }
        return Optional.ofNullable(any == null ? null : any);
    }

    private static Filter filter(String name, ValueRange range)
    {
        if (range.isSingleValue()) {
            return new EqualTo(name, range.low().orElseThrow());
        }
        Filter low = range.low().<Filter>map(value -> range.lowInclusive() ? new GreaterThanOrEqual(name, value) : new GreaterThan(name, value)).orElse(null);
        Filter high = range.high().<Filter>map(value -> range.highInclusive() ? new LessThanOrEqual(name, value) : new LessThan(name, value)).orElse(null);
        if (low == null && high == null) {
            return new IsNotNull(name);
        }
        return low == null ? high : high == null ? low : new And(low, high);
    }
}
