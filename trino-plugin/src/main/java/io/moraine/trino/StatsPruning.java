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

    /** Column id to the range its domain allows; columns whose values cannot be compared are left out (never pruned). */
    static Map<Long, FileStatsFilter.ValueRange> ranges(TupleDomain<MoraineColumnHandle> constraint)
    {
        Map<Long, FileStatsFilter.ValueRange> ranges = new HashMap<>();
        constraint.getDomains().orElse(Map.of()).forEach((column, domain) -> range(column, domain).ifPresent(range -> ranges.put(column.columnId(), range)));
        return ranges;
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
