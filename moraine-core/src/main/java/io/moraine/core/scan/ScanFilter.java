package io.moraine.core.scan;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

/**
 * A conjunction of column domains, by column id: a row can match only if each constrained column's value is in its
 * domain. {@link #none()} matches nothing. Filters only prune (files, partitions, row groups); engines still apply
 * their predicate to the rows read.
 */
public record ScanFilter(Map<Long, ColumnDomain> domains, boolean isNone)
        implements Serializable
{
    private static final ScanFilter ALL = new ScanFilter(Map.of(), false);
    private static final ScanFilter NONE = new ScanFilter(Map.of(), true);

    public ScanFilter
    {
        domains = Map.copyOf(domains);
        if (!isNone && domains.values().stream().anyMatch(ColumnDomain::isNone)) {
            domains = Map.of();
            isNone = true;
        }
    }

    public static ScanFilter all()
    {
        return ALL;
    }

    public static ScanFilter none()
    {
        return NONE;
    }

    public static ScanFilter of(Map<Long, ColumnDomain> domains)
    {
        return new ScanFilter(domains, false);
    }

    /** This filter and one more column domain. A second domain for the same column replaces nothing: both must hold. */
    public ScanFilter and(long columnId, ColumnDomain domain)
    {
        if (isNone) {
            return this;
        }
        Map<Long, ColumnDomain> combined = new HashMap<>(domains);
        ColumnDomain existing = combined.get(columnId);
        combined.put(columnId, existing == null ? domain : intersectLoosely(existing, domain));
        return new ScanFilter(combined, false);
    }

    public boolean isAll()
    {
        return !isNone && domains.isEmpty();
    }

    /**
     * Two domains of one column: kept as the narrower-looking one. Pruning stays correct with either (each is implied
     * by the conjunction); engines hand over one domain per column, so this only arises when callers combine filters.
     */
    private static ColumnDomain intersectLoosely(ColumnDomain first, ColumnDomain second)
    {
        return second.ranges().size() < first.ranges().size() ? second : first;
    }
}
