package io.moraine.trino;

import io.airlift.slice.Slice;
import io.moraine.core.catalog.FileStatsFilter;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.Type;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/** Turns a pushed-down TupleDomain into the value ranges and value sets moraine's file filters understand. */
final class StatsPruning
{
    private StatsPruning() {}

    /** Beyond this many ranges a column's domain is pruned by its span alone (as for a large dynamic filter). */
    private static final int MAX_RANGES_PER_COLUMN = 64;

    /**
     * Column id to the ranges its domain allows (each of an IN list or a dynamic filter's values, or the span of many);
     * columns whose values cannot be compared are left out (never pruned).
     */
    static Map<Long, List<FileStatsFilter.ValueRange>> ranges(TupleDomain<MoraineColumnHandle> constraint)
    {
        Map<Long, List<FileStatsFilter.ValueRange>> ranges = new HashMap<>();
        constraint.getDomains().orElse(Map.of()).forEach((column, domain) -> columnRanges(column, domain).ifPresent(list -> ranges.put(column.columnId(), list)));
        return ranges;
    }

    private static Optional<List<FileStatsFilter.ValueRange>> columnRanges(MoraineColumnHandle column, Domain domain)
    {
        if (domain.getValues().isNone() || domain.getValues().isAll() || !domain.getType().isOrderable()
                || domain.getValues().getRanges().getRangeCount() == 1 || domain.getValues().getRanges().getRangeCount() > MAX_RANGES_PER_COLUMN) {
            return range(column, domain).map(List::of);
        }
        List<FileStatsFilter.ValueRange> ranges = new ArrayList<>();
        for (Range range : domain.getValues().getRanges().getOrderedRanges()) {
            Optional<FileStatsFilter.ValueRange> one = range(column, Domain.create(io.trino.spi.predicate.ValueSet.ofRanges(range), domain.isNullAllowed()));
            if (one.isEmpty()) {
                return Optional.empty();
            }
            ranges.add(one.get());
        }
        return Optional.of(ranges);
    }

    /** Column id to the values an equality or IN predicate allows, for bucket-partition pruning; other domains are left out. */
    static Map<Long, List<Object>> discreteValues(TupleDomain<MoraineColumnHandle> constraint)
    {
        Map<Long, List<Object>> values = new HashMap<>();
        constraint.getDomains().orElse(Map.of()).forEach((column, domain) -> {
            if (domain.isNullAllowed() || !domain.getValues().isDiscreteSet()) {
                return;
            }
            List<Object> converted = new ArrayList<>();
            for (Object value : domain.getValues().getDiscreteSet()) {
                Optional<Comparable<?>> javaValue = value(column.type(), value);
                if (javaValue.isEmpty()) {
                    return;
                }
                converted.add(javaValue.get());
            }
            values.put(column.columnId(), converted);
        });
        return values;
    }

    private static Optional<FileStatsFilter.ValueRange> range(MoraineColumnHandle column, Domain domain)
    {
        if (domain.isAll()) {
            return Optional.empty();
        }
        if (domain.getValues().isNone()) {
            return Optional.of(new FileStatsFilter.ValueRange(column.duckLakeType(), Optional.empty(), true, Optional.empty(), true, domain.isNullAllowed(), false));
        }
        if (domain.getValues().isAll() || !domain.getType().isOrderable()) {
            return Optional.empty();
        }
        Range span = domain.getValues().getRanges().getSpan();
        Optional<Comparable<?>> low = span.isLowUnbounded() ? Optional.empty() : value(column.type(), span.getLowBoundedValue());
        Optional<Comparable<?>> high = span.isHighUnbounded() ? Optional.empty() : value(column.type(), span.getHighBoundedValue());
        if ((!span.isLowUnbounded() && low.isEmpty()) || (!span.isHighUnbounded() && high.isEmpty())) {
            return Optional.empty();
        }
        return Optional.of(new FileStatsFilter.ValueRange(column.duckLakeType(), low, span.isLowInclusive(), high, span.isHighInclusive(),
                domain.isNullAllowed(), true));
    }

    /** A Trino value as the Java value moraine parses the same column's statistics into. */
    private static Optional<Comparable<?>> value(Type type, Object value)
    {
        if (type == BIGINT || type == INTEGER || type == SMALLINT || type == TINYINT) {
            return Optional.of((Long) value);
        }
        if (type == DOUBLE) {
            return Optional.of((Double) value);
        }
        if (type == VARCHAR) {
            return Optional.of(new FileStatsFilter.Utf8(((Slice) value).toStringUtf8()));
        }
        if (type == DATE) {
            return Optional.of(LocalDate.ofEpochDay((Long) value));
        }
        if (type == TIMESTAMP_MICROS) {
            long micros = (Long) value;
            return Optional.of(LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000), (int) Math.floorMod(micros, 1_000_000) * 1000, ZoneOffset.UTC));
        }
        if (type instanceof DecimalType decimal) {
            return Optional.of(decimal.isShort()
                    ? BigDecimal.valueOf((Long) value, decimal.getScale())
                    : new BigDecimal(((Int128) value).toBigInteger(), decimal.getScale()));
        }
        return Optional.empty();
    }
}
