package io.moraine.spark;

import io.moraine.core.scan.ColumnDomain;
import io.moraine.core.scan.HiddenColumn;
import io.moraine.core.scan.ScanFilter;
import io.moraine.core.scan.ValueRange;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.AlwaysFalse;
import org.apache.spark.sql.connector.expressions.filter.AlwaysTrue;
import org.apache.spark.sql.connector.expressions.filter.And;
import org.apache.spark.sql.connector.expressions.filter.Or;
import org.apache.spark.sql.connector.expressions.filter.Predicate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Spark predicates as the core's {@link ScanFilter} for pruning files and partitions: comparisons, IN, IS [NOT] NULL
 * and AND of them on top-level columns, matched by name to the column ids of the table at the snapshot, and on the
 * metadata column {@code _row_id} (as the core's {@link HiddenColumn#ROW_ID}, which planning prunes files by). What
 * does not convert prunes nothing; Spark still evaluates every predicate on the rows read.
 */
final class SparkFilters
{
    /** {@code _row_id} as the core names it; its values are whole numbers, as {@link CatalystValues} gives Spark's longs. */
    private static final TableColumn ROW_ID = new TableColumn(HiddenColumn.ROW_ID.columnId(), "_row_id", DuckLakeType.of(PrimitiveKind.INT64), Optional.empty());

    private SparkFilters() {}

    /**
     * The predicates that convert, and the filter they make together; {@code exact}: the filter accepts exactly the
     * rows all the predicates accept (every predicate converted whole, on table columns only).
     */
    record Converted(List<Predicate> predicates, ScanFilter filter, boolean exact) {}

    static Converted convert(Predicate[] predicates, TableSchema schema)
    {
        Map<Long, ColumnDomain> domains = new HashMap<>();
        List<Predicate> converted = new ArrayList<>();
        boolean none = false;
        boolean exact = true;
        for (Predicate given : predicates) {
            Predicate predicate = simplified(given);
            if (predicate instanceof AlwaysTrue || predicate instanceof AlwaysFalse) {
                none |= predicate instanceof AlwaysFalse;
                converted.add(given);
                continue;
            }
            Map<Long, ColumnDomain> conjuncts = new HashMap<>();
            if (!collect(predicate, schema, conjuncts)) {
                exact = false;
                continue;
            }
            converted.add(given);
            for (Map.Entry<Long, ColumnDomain> entry : conjuncts.entrySet()) {
                ColumnDomain previous = domains.get(entry.getKey());
                ColumnDomain merged = previous == null ? entry.getValue() : intersect(previous, entry.getValue());
                if (merged == null) {
                    exact = false;
                    continue;
                }
                domains.put(entry.getKey(), merged);
                none |= merged.isNone();
            }
        }
        exact &= !domains.containsKey(HiddenColumn.ROW_ID.columnId());
        return new Converted(converted, none ? ScanFilter.none() : ScanFilter.of(domains), exact);
    }

    /** Adds the predicate's domains (a conjunction) to {@code domains}; false when it does not convert whole. */
    private static boolean collect(Predicate predicate, TableSchema schema, Map<Long, ColumnDomain> domains)
    {
        Expression[] children = predicate.children();
        switch (predicate.name()) {
            case "AND" -> {
                Map<Long, ColumnDomain> left = new HashMap<>();
                Map<Long, ColumnDomain> right = new HashMap<>();
                if (!collect((Predicate) children[0], schema, left) || !collect((Predicate) children[1], schema, right)) {
                    return false;
                }
                domains.putAll(left);
                for (Map.Entry<Long, ColumnDomain> entry : right.entrySet()) {
                    ColumnDomain previous = domains.get(entry.getKey());
                    ColumnDomain merged = previous == null ? entry.getValue() : intersect(previous, entry.getValue());
                    if (merged == null) {
                        return false;
                    }
                    domains.put(entry.getKey(), merged);
                }
                return true;
            }
            case "OR" -> {
                // x = a OR x = b OR x IS NULL ...: one column on both sides, its domains united
                Map<Long, ColumnDomain> left = new HashMap<>();
                Map<Long, ColumnDomain> right = new HashMap<>();
                if (!collect((Predicate) children[0], schema, left) || !collect((Predicate) children[1], schema, right)
                        || left.size() != 1 || !left.keySet().equals(right.keySet())) {
                    return false;
                }
                long columnId = left.keySet().iterator().next();
                ColumnDomain a = left.get(columnId);
                ColumnDomain b = right.get(columnId);
                List<ValueRange> ranges = new ArrayList<>(a.ranges());
                ranges.addAll(b.ranges());
                domains.put(columnId, new ColumnDomain(ranges, a.nullAllowed() || b.nullAllowed()));
                return true;
            }
            case "<=>" -> {
                // NULL-safe equality with a literal (what a static PARTITION (k = v) clause becomes)
                boolean columnFirst = children[0] instanceof NamedReference;
                Optional<TableColumn> column = column(columnFirst ? children[0] : children[1], schema);
                Expression other = columnFirst ? children[1] : children[0];
                if (column.isEmpty() || !(other instanceof Literal<?> literal)) {
                    return false;
                }
                if (literal.value() == null) {
                    domains.put(column.get().columnId(), ColumnDomain.onlyNull());
                    return true;
                }
                Object value = literal(other, column.get());
                if (value == null) {
                    return false;
                }
                domains.put(column.get().columnId(), ColumnDomain.of(ValueRange.equalTo(value)));
                return true;
            }
            case "IS_NULL", "IS_NOT_NULL" -> {
                Optional<TableColumn> column = column(children[0], schema);
                column.ifPresent(found -> domains.put(found.columnId(), predicate.name().equals("IS_NULL") ? ColumnDomain.onlyNull() : ColumnDomain.notNull()));
                return column.isPresent();
            }
            case "IN" -> {
                Optional<TableColumn> column = column(children[0], schema);
                if (column.isEmpty()) {
                    return false;
                }
                List<Object> values = new ArrayList<>();
                for (int i = 1; i < children.length; i++) {
                    Object value = literal(children[i], column.get());
                    if (value == null) {
                        return false;
                    }
                    values.add(value);
                }
                domains.put(column.get().columnId(), ColumnDomain.values(values));
                return true;
            }
            case "=", "<", "<=", ">", ">=" -> {
                boolean columnFirst = children[0] instanceof NamedReference;
                Expression reference = columnFirst ? children[0] : children[1];
                Expression other = columnFirst ? children[1] : children[0];
                Optional<TableColumn> column = column(reference, schema);
                if (column.isEmpty()) {
                    return false;
                }
                Object value = literal(other, column.get());
                if (value == null) {
                    return false;
                }
                String operator = columnFirst ? predicate.name() : flipped(predicate.name());
                ValueRange range = switch (operator) {
                    case "=" -> ValueRange.equalTo(value);
                    case "<" -> ValueRange.lessThan(value, false);
                    case "<=" -> ValueRange.lessThan(value, true);
                    case ">" -> ValueRange.greaterThan(value, false);
                    default -> ValueRange.greaterThan(value, true);
                };
                domains.put(column.get().columnId(), ColumnDomain.of(range));
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * The predicate with constants folded: {@code <literal> IS [NOT] NULL} to TRUE or FALSE, then AND and OR with a
     * constant side (Spark writes a static {@code PARTITION (k = v)} clause as
     * {@code (k IS NOT NULL AND 'v' IS NOT NULL AND k = 'v') OR (k IS NULL AND 'v' IS NULL)}).
     */
    static Predicate simplified(Predicate predicate)
    {
        Expression[] children = predicate.children();
        switch (predicate.name()) {
            case "IS_NULL", "IS_NOT_NULL" -> {
                if (children[0] instanceof Literal<?> literal) {
                    boolean isNull = literal.value() == null;
                    return isNull == predicate.name().equals("IS_NULL") ? new AlwaysTrue() : new AlwaysFalse();
                }
                return predicate;
            }
            case "AND" -> {
                Predicate left = simplified((Predicate) children[0]);
                Predicate right = simplified((Predicate) children[1]);
                if (left instanceof AlwaysFalse || right instanceof AlwaysFalse) {
                    return new AlwaysFalse();
                }
                if (left instanceof AlwaysTrue) {
                    return right;
                }
                return right instanceof AlwaysTrue ? left : new And(left, right);
            }
            case "OR" -> {
                Predicate left = simplified((Predicate) children[0]);
                Predicate right = simplified((Predicate) children[1]);
                if (left instanceof AlwaysTrue || right instanceof AlwaysTrue) {
                    return new AlwaysTrue();
                }
                if (left instanceof AlwaysFalse) {
                    return right;
                }
                return right instanceof AlwaysFalse ? left : new Or(left, right);
            }
            default -> {
                return predicate;
            }
        }
    }

    private static String flipped(String operator)
    {
        return switch (operator) {
            case "<" -> ">";
            case "<=" -> ">=";
            case ">" -> "<";
            case ">=" -> "<=";
            default -> operator;
        };
    }

    /** Two domains of one column that both hold: kept only when one is IS NOT NULL (the other then wins), else unconverted. */
    private static ColumnDomain intersect(ColumnDomain left, ColumnDomain right)
    {
        if (left.equals(ColumnDomain.notNull())) {
            return right.nullAllowed() ? new ColumnDomain(right.ranges(), false) : right;
        }
        if (right.equals(ColumnDomain.notNull())) {
            return left.nullAllowed() ? new ColumnDomain(left.ranges(), false) : left;
        }
        if (left.ranges().size() == 1 && right.ranges().size() == 1 && !left.nullAllowed() && !right.nullAllowed()) {
            ValueRange a = left.ranges().getFirst();
            ValueRange b = right.ranges().getFirst();
            if (a.low().isEmpty() && b.high().isEmpty()) {
                return ColumnDomain.of(new ValueRange(b.low(), b.lowInclusive(), a.high(), a.highInclusive()));
            }
            if (b.low().isEmpty() && a.high().isEmpty()) {
                return ColumnDomain.of(new ValueRange(a.low(), a.lowInclusive(), b.high(), b.highInclusive()));
            }
        }
        return null;
    }

    /**
     * A top-level column of a type whose Spark values compare as DuckDB's do, or {@code _row_id} when the table has no
     * column of that name (a table's own column hides the metadata column of its name).
     */
    private static Optional<TableColumn> column(Expression expression, TableSchema schema)
    {
        if (!(expression instanceof NamedReference reference) || reference.fieldNames().length != 1) {
            return Optional.empty();
        }
        String name = reference.fieldNames()[0];
        if (schema.columns().stream().noneMatch(column -> column.name().equals(name))) {
            return name.equals(ROW_ID.name()) ? Optional.of(ROW_ID) : Optional.empty();
        }
        return schema.columns().stream()
                .filter(column -> column.name().equals(name))
                .filter(column -> column.type() instanceof DuckLakeType.Decimal || column.type() instanceof DuckLakeType.Primitive)
                .filter(column -> !SparkTypes.readAsBinary(column) && SparkTypes.unreadable(column) == null)
                .findFirst();
    }

    private static Object literal(Expression expression, TableColumn column)
    {
        if (!(expression instanceof Literal<?> literal)) {
            return null;
        }
        return CatalystValues.fromCatalyst(literal.dataType(), literal.value());
    }
}
