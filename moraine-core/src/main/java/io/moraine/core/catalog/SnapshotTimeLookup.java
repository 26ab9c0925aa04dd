package io.moraine.core.catalog;

import io.moraine.core.keyspace.Micros;
import io.moraine.core.keyspace.SnapshotTimeKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * Finds snapshots by time, as DuckLake resolves them, in one view of a store: through the snapshot-time index, one
 * range scan that stops at its first entry, or, in a store written before the index existed, by reading every
 * ducklake_snapshot row. Rows whose snapshot_time is NULL are never selected.
 */
final class SnapshotTimeLookup
{
    private static final Comparator<Row> BY_TIME_THEN_ID = Comparator.comparing((Row row) -> (Instant) row.get("snapshot_time"))
            .thenComparing(row -> row.getLong("snapshot_id"));

    private final KeyValueReader reader;
    private final boolean indexed;

    SnapshotTimeLookup(KeyValueReader reader, boolean indexed)
    {
        this.reader = reader;
        this.indexed = indexed;
    }

    /** "As of t": the snapshot with the largest snapshot_time at or before t, the highest id on equal times. */
    OptionalLong latestAtOrBefore(Instant instant)
    {
        if (!indexed) {
            return scanAll(time -> !time.isAfter(instant), BY_TIME_THEN_ID);
        }
        byte[] end = SnapshotTimeKeys.after(Micros.floorOf(instant));
        try (KeyValueCursor entries = reader.scanDescending(Subspace.SNAPSHOT_TIME.start(), end, 1)) {
            return firstId(entries);
        }
    }

    /** A change feed's lower bound: the snapshot with the smallest snapshot_time at or after t, the lowest id on equal times. */
    OptionalLong earliestAtOrAfter(Instant instant)
    {
        if (!indexed) {
            return scanAll(time -> !time.isBefore(instant), BY_TIME_THEN_ID.reversed());
        }
        byte[] start = SnapshotTimeKeys.atOrAfter(Micros.ceilOf(instant));
        try (KeyValueCursor entries = reader.scan(start, Subspace.SNAPSHOT_TIME.end(), 1)) {
            return firstId(entries);
        }
    }

    private static OptionalLong firstId(KeyValueCursor entries)
    {
        return entries.hasNext() ? OptionalLong.of(SnapshotTimeKeys.snapshotId(entries.next().key())) : OptionalLong.empty();
    }

    /**
     * The fallback for stores without the index: reads every snapshot row and keeps the one {@code preference} ranks
     * highest among those whose time is set and {@code selected}.
     */
    private OptionalLong scanAll(Predicate<Instant> selected, Comparator<Row> preference)
    {
        Row best = null;
        try (RowCursor snapshots = new RowCursor(reader, TableKind.SNAPSHOT, List.of(Subspace.CURRENT), new Object[0], RowCursor.DEFAULT_PAGE_SIZE,
                row -> row.get("snapshot_time") instanceof Instant time && selected.test(time), List.of())) {
            while (snapshots.hasNext()) {
                Row row = snapshots.next();
                if (best == null || preference.compare(row, best) > 0) {
                    best = row;
                }
            }
        }
        return best == null ? OptionalLong.empty() : OptionalLong.of(best.getLong("snapshot_id"));
    }
}
