package io.moraine.trino;

import io.moraine.core.scan.ColumnDomain;
import io.moraine.core.scan.ScanFilter;
import io.moraine.core.scan.ValueRange;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A pushed-down {@link TupleDomain} as the core's {@link ScanFilter}: the ranges of each column's domain, in moraine's values. */
final class TrinoFilters
{
    /** Beyond this many ranges a column's domain is pruned by its span alone (as for a large dynamic filter). */
    private static final int MAX_RANGES_PER_COLUMN = 64;

    private TrinoFilters() {}

    static ScanFilter toScanFilter(TupleDomain<MoraineColumnHandle> predicate)
    {
        if (predicate.isNone()) {
            return ScanFilter.none();
        }
        Map<Long, ColumnDomain> domains = new HashMap<>();
        predicate.getDomains().orElseThrow().forEach((column, domain) -> {
            // A nested field's domain is left to Trino: a NULL struct makes its fields NULL, which leaf statistics need not count.
            if (!column.isDereference()) {
                columnDomain(column, domain).ifPresent(converted -> domains.put(column.columnId(), converted));
            }
        });
        return ScanFilter.of(domains);
    }

    /** The domain in moraine's terms; empty when it constrains nothing moraine can prune on. */
    private static Optional<ColumnDomain> columnDomain(MoraineColumnHandle column, Domain domain)
    {
        if (domain.isAll()) {
            return Optional.empty();
        }
        if (domain.getValues().isNone()) {
            return Optional.of(new ColumnDomain(List.of(), domain.isNullAllowed()));
        }
        if (domain.getValues().isAll()) {
            return Optional.of(new ColumnDomain(List.of(ValueRange.all()), domain.isNullAllowed()));
        }
        if (!domain.getType().isOrderable()) {
            return Optional.empty();
        }
        List<Range> ranges = domain.getValues().getRanges().getRangeCount() > MAX_RANGES_PER_COLUMN
                ? List.of(domain.getValues().getRanges().getSpan())
                : domain.getValues().getRanges().getOrderedRanges();
        List<ValueRange> converted = new ArrayList<>(ranges.size());
        for (Range range : ranges) {
            Optional<Object> low = range.isLowUnbounded() ? Optional.empty() : TrinoValues.toMoraine(column.type(), range.getLowBoundedValue());
            Optional<Object> high = range.isHighUnbounded() ? Optional.empty() : TrinoValues.toMoraine(column.type(), range.getHighBoundedValue());
            if ((!range.isLowUnbounded() && low.isEmpty()) || (!range.isHighUnbounded() && high.isEmpty())) {
                return Optional.empty();
            }
            converted.add(new ValueRange(low, range.isLowInclusive(), high, range.isHighInclusive()));
        }
        return Optional.of(new ColumnDomain(converted, domain.isNullAllowed()));
    }
}
