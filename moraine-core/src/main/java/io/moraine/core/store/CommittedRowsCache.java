package io.moraine.core.store;

import io.moraine.core.keyspace.KeyBytes;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.RowValueCodec;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.row.InsertionOrder;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Every row of a catalog kind (served in {@link InsertionOrder}) kept across transactions while the
 * kind's row stamp ({@link RowStamps}) is unchanged. A front end that reads whole tables per transaction (DuckLake
 * through the DuckDB extension) thus scans a table again only after it changed; and when this process's committer
 * changed it, the entry is carried forward by applying the commit's own writes instead ({@link #committing}).
 * A kind keeps its last few versions, not only the newest: concurrent transactions read at different snapshots, and
 * one reading an older version must neither miss nor push the newest out (which would make every later commit rescan).
 * The versions of a kind hold at most {@link #MAX_ROWS_PER_KIND} rows together (the newest is always kept if it fits);
 * ducklake_metadata, whose first rows are the store facts, is not kept.
 */
public final class CommittedRowsCache
{
    static final int MAX_ROWS_PER_KIND = 250_000;
    public static final int VERSIONS_PER_KIND = 16;

    private static final java.util.Comparator<byte[]> KEY_ORDER = Arrays::compareUnsigned;

    private final Map<TableKind, Versions> entries = new ConcurrentHashMap<>();

    /**
     * A kind's rows under one stamp: its current rows, then its history rows, each in key order, and the same rows as
     * served, in {@link InsertionOrder}. Carrying an entry forward copies the key-ordered list in runs between the
     * written keys, found by binary search: a commit costs a copy of the references, not a rebuild of sorted maps.
     */
    private record Entry(byte[] stamp, List<Row> rows, int currentRows, InsertionOrdered served)
    {
        Entry(byte[] stamp, TableKind kind, List<Row> rows, int currentRows)
        {
            this(stamp, rows, currentRows, new InsertionOrdered(kind, rows));
        }

        static Entry sorted(byte[] stamp, TableKind kind, List<Row> rows)
        {
            NavigableMap<byte[], Row> current = new TreeMap<>(KEY_ORDER);
            NavigableMap<byte[], Row> history = new TreeMap<>(KEY_ORDER);
            for (Row row : rows) {
                Subspace subspace = row.isCurrent() ? Subspace.CURRENT : Subspace.HISTORY;
                (subspace == Subspace.CURRENT ? current : history).put(RowKeys.key(subspace, row), row);
            }
            List<Row> served = new ArrayList<>(current.size() + history.size());
            served.addAll(current.values());
            served.addAll(history.values());
            return new Entry(stamp, kind, Collections.unmodifiableList(served), current.size());
        }

        /** This entry with {@code writes} (each subspace's, in key order; a null value deletes) applied, under {@code newStamp}. */
        Entry with(byte[] newStamp, TableKind kind, NavigableMap<byte[], byte[]> currentWrites, NavigableMap<byte[], byte[]> historyWrites)
        {
            List<Row> served = new ArrayList<>(rows.size() + currentWrites.size() + historyWrites.size());
            applyInto(served, rows.subList(0, currentRows), Subspace.CURRENT, kind, currentWrites);
            int newCurrentRows = served.size();
            applyInto(served, rows.subList(currentRows, rows.size()), Subspace.HISTORY, kind, historyWrites);
            return new Entry(newStamp, kind, Collections.unmodifiableList(served), newCurrentRows);
        }

        /** Appends {@code rows} (one subspace's, in key order) with {@code writes} applied to {@code target}. */
        private static void applyInto(List<Row> target, List<Row> rows, Subspace subspace, TableKind kind, NavigableMap<byte[], byte[]> writes)
        {
            int from = 0;
            for (Map.Entry<byte[], byte[]> write : writes.entrySet()) {
                int found = search(rows, from, subspace, write.getKey());
                int at = found >= 0 ? found : -found - 1;
                target.addAll(rows.subList(from, at));
                if (write.getValue() != null) {
                    target.add(RowValueCodec.decode(kind, write.getKey(), write.getValue()));
                }
                from = found >= 0 ? found + 1 : at;
            }
            target.addAll(rows.subList(from, rows.size()));
        }

        /** {@link Collections#binarySearch} over {@code rows[from..]} by key. */
        private static int search(List<Row> rows, int from, Subspace subspace, byte[] key)
        {
            int low = from;
            int high = rows.size() - 1;
            while (low <= high) {
                int middle = (low + high) >>> 1;
                int order = KEY_ORDER.compare(RowKeys.key(subspace, rows.get(middle)), key);
                if (order < 0) {
                    low = middle + 1;
                }
                else if (order > 0) {
                    high = middle - 1;
                }
                else {
                    return middle;
                }
            }
            return -(low + 1);
        }
    }

    /**
     * An entry's rows in {@link InsertionOrder}, sorted when first read rather than under the commit lock that carries
     * an entry forward (kinds served in key order, such as ducklake_snapshot, need no sort).
     */
    private static final class InsertionOrdered
    {
        private final TableKind kind;
        private final List<Row> keyOrdered;
        private volatile List<Row> sorted;

        InsertionOrdered(TableKind kind, List<Row> keyOrdered)
        {
            this.kind = kind;
            this.keyOrdered = keyOrdered;
        }

        List<Row> rows()
        {
            List<Row> rows = sorted;
            if (rows == null) {
                rows = InsertionOrder.sort(kind, keyOrdered); // two racing readers sort alike; either list may be kept
                sorted = rows;
            }
            return rows;
        }
    }

    /** A kind's kept versions, the most recently used first (the one each commit carries forward is used by every commit). */
    private static final class Versions
    {
        private final Deque<Entry> entries = new ArrayDeque<>();

        /** The version under {@code stamp}, made the most recently used. */
        synchronized Entry find(byte[] stamp)
        {
            for (var iterator = entries.iterator(); iterator.hasNext(); ) {
                Entry entry = iterator.next();
                if (Arrays.equals(entry.stamp(), stamp)) {
                    iterator.remove();
                    entries.addFirst(entry);
                    return entry;
                }
            }
            return null;
        }

        synchronized void keep(Entry kept)
        {
            entries.removeIf(entry -> Arrays.equals(entry.stamp(), kept.stamp()));
            entries.addFirst(kept);
            // most recently used first: the first version past the count or the rows bound goes, and every one after it
            long rows = 0;
            int count = 0;
            for (var iterator = entries.iterator(); iterator.hasNext(); ) {
                Entry entry = iterator.next();
                rows += entry.rows().size();
                if (count > 0 && (rows > MAX_ROWS_PER_KIND || count >= VERSIONS_PER_KIND)) {
                    iterator.remove();
                }
                else {
                    count++;
                }
            }
        }
    }

    /**
     * Every row of {@code kind} as {@code reader} sees it, in {@link InsertionOrder}: kept rows when the stamp there
     * matches, else {@code scan}'s (current rows, then history rows, each in key order).
     */
    public List<Row> rows(KeyValueReader reader, TableKind kind, Supplier<List<Row>> scan)
    {
        if (kind == TableKind.METADATA) {
            return scan.get();
        }
        byte[] stamp = reader.get(SystemKeys.rowStamp(kind));
        if (stamp == null) {
            return InsertionOrder.sort(kind, scan.get()); // a store written before row stamps, until its next read-write open upgrades it
        }
        Versions versions = entries.computeIfAbsent(kind, k -> new Versions());
        Entry entry = versions.find(stamp);
        if (entry != null) {
            return entry.served().rows();
        }
        List<Row> rows = scan.get();
        if (rows.size() > MAX_ROWS_PER_KIND) {
            return InsertionOrder.sort(kind, rows);
        }
        Entry kept = Entry.sorted(stamp, kind, rows);
        versions.keep(kept);
        return kept.served().rows();
    }

    /**
     * A committer is about to apply {@code writes} (with their new stamps) over the state {@code before} reads: each
     * kind the batch changes gains a version under its new stamp, the batch's rows applied to the version kept under
     * the stamp it has in {@code before} (if one is kept). Call under the commit lock.
     */
    public void committing(KeyValueReader before, Map<ByteBuffer, byte[]> writes, Set<TableKind> changed)
    {
        for (TableKind kind : changed) {
            Versions versions = entries.get(kind);
            byte[] newStamp = writes.get(ByteBuffer.wrap(SystemKeys.rowStamp(kind)));
            Entry entry = versions == null || newStamp == null ? null : versions.find(before.get(SystemKeys.rowStamp(kind)));
            if (entry == null) {
                continue;
            }
            NavigableMap<byte[], byte[]> currentWrites = new TreeMap<>(KEY_ORDER);
            NavigableMap<byte[], byte[]> historyWrites = new TreeMap<>(KEY_ORDER);
            for (Map.Entry<ByteBuffer, byte[]> write : writes.entrySet()) {
                if (RowStamps.kindOf(write.getKey()).orElse(null) != kind) {
                    continue;
                }
                byte[] key = KeyBytes.toArray(write.getKey());
                (key[0] == Subspace.HISTORY.tag() ? historyWrites : currentWrites).put(key, write.getValue());
            }
            Entry next = entry.with(newStamp, kind, currentWrites, historyWrites);
            if (next.rows().size() <= MAX_ROWS_PER_KIND) {
                versions.keep(next);
            }
        }
    }

    /** Forgets every kept row (the store's state after a failed write is unknown). */
    public void clear()
    {
        entries.clear();
    }
}
