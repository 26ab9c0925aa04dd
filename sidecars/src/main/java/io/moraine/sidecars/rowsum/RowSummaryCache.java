package io.moraine.sidecars.rowsum;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The process's resident summaries, least recently used first out, each tier bounded by bytes: memberships (what a
 * lookup needs) apart from full summaries (set and order, for located deletes and updates), so that neither evicts the
 * other. Keyed by the data file's identity; a data file is immutable, so nothing is ever invalidated.
 */
public final class RowSummaryCache
{
    private final Tier<RowIdSet> memberships;
    private final Tier<RowSummary> summaries;

    public RowSummaryCache(long membershipBytes, long summaryBytes)
    {
        this.memberships = new Tier<>(membershipBytes);
        this.summaries = new Tier<>(summaryBytes);
    }

    public Optional<RowIdSet> membership(DataFileIdentity file)
    {
        Optional<RowIdSet> set = memberships.get(file);
        return set.isPresent() ? set : summaries.get(file).map(RowSummary::set);
    }

    public void putMembership(DataFileIdentity file, RowIdSet set)
    {
        memberships.put(file, set, weight(set));
    }

    public Optional<RowSummary> summary(DataFileIdentity file)
    {
        return summaries.get(file);
    }

    public void putSummary(DataFileIdentity file, RowSummary summary)
    {
        summaries.put(file, summary, weight(summary.set()) + 4L * summary.rowCount());
    }

    public long membershipBytes()
    {
        return memberships.bytes();
    }

    /** Resident bytes of a set, conservatively: what holding it costs, not its encoding. */
    static long weight(RowIdSet set)
    {
        return 64 + switch (set) {
            case DenseRowIds ignored -> 16;
            case SortedRowIds sorted -> 8 * sorted.cardinality();
            case RoaringRowIds roaring -> roaring.serializedSize();
        };
    }

    private static final class Tier<V>
    {
        private final long capacity;
        private final LinkedHashMap<DataFileIdentity, Weighted<V>> entries = new LinkedHashMap<>(16, 0.75f, true);
        private long bytes;

        Tier(long capacity)
        {
            if (capacity < 0) {
                throw new IllegalArgumentException("a row summary cache's size must not be negative, was " + capacity);
            }
            this.capacity = capacity;
        }

        synchronized Optional<V> get(DataFileIdentity file)
        {
            Weighted<V> entry = entries.get(file);
            return entry == null ? Optional.empty() : Optional.of(entry.value());
        }

        synchronized void put(DataFileIdentity file, V value, long weight)
        {
            if (weight > capacity) {
                return;
            }
            Weighted<V> previous = entries.put(file, new Weighted<>(value, weight));
            bytes += weight - (previous == null ? 0 : previous.weight());
            var eldest = entries.entrySet().iterator();
            while (bytes > capacity && eldest.hasNext()) {
                Map.Entry<DataFileIdentity, Weighted<V>> entry = eldest.next();
                bytes -= entry.getValue().weight();
                eldest.remove();
            }
        }

        synchronized long bytes()
        {
            return bytes;
        }
    }

    private record Weighted<V>(V value, long weight) {}
}
