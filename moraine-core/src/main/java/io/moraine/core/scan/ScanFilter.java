package io.moraine.core.scan;

import java.io.Serializable;
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

    public boolean isAll()
    {
        return !isNone && domains.isEmpty();
    }
}
