package io.moraine.core.changes;

import io.moraine.core.error.InternalException;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code table_changes} for the rows of one {@link ChangeGroup}, written once for every engine: an engine reads the
 * group's rows in batches with its own readers and hands over, per batch, each row's snapshot and row id through
 * {@link LongColumn}s. When the group {@link #pairs()}, a first pass {@link #count counts} the keys of every row of the
 * group (its {@linkplain ChangeGroup#pairingTasks() key tasks'} included; reading no table column is enough); the
 * second pass streams the rows, and {@link #name} says which rows of a batch come out and with which change type, by
 * {@link ChangePairing}. Both passes refuse a row whose snapshot is outside the group's, as {@link ChangeGroup} asks:
 * it could pair with a row of another group, so its pairing could be wrong.
 */
public final class PairedChanges
{
    /** One long per row of a batch: a snapshot id or a row id, however the engine holds it. */
    @FunctionalInterface
    public interface LongColumn
    {
        long get(int row);
    }

    private final String reader;
    private final long firstSnapshot;
    private final long lastSnapshot;
    private final boolean pairs;
    private final Map<ChangeKind, Map<ChangeKey, Long>> keyCounts = new EnumMap<>(ChangeKind.class);
    private boolean naming;
    private int[] rows = new int[0];
    private ChangeType[] types = new ChangeType[0];

    private PairedChanges(String reader, long firstSnapshot, long lastSnapshot, boolean pairs)
    {
        if (firstSnapshot > lastSnapshot) {
            throw new IllegalArgumentException("a change group's snapshots run from " + firstSnapshot + " to " + lastSnapshot + ", which is no range");
        }
        this.reader = reader;
        this.firstSnapshot = firstSnapshot;
        this.lastSnapshot = lastSnapshot;
        this.pairs = pairs;
        for (ChangeKind kind : ChangeKind.values()) {
            keyCounts.put(kind, new HashMap<>());
        }
    }

    /**
     * The pairing of {@code group}'s rows; {@code reader} names the read in errors (e.g. {@code table_changes of
     * main.orders}).
     */
    public static PairedChanges of(ChangeGroup group, String reader)
    {
        return new PairedChanges(reader, group.firstSnapshot(), group.lastSnapshot(), group.pairs());
    }

    /** The pairing of a group of snapshots {@code [firstSnapshot, lastSnapshot]} that {@linkplain ChangeGroup#pairs() pairs} or not. */
    public static PairedChanges of(long firstSnapshot, long lastSnapshot, boolean pairs, String reader)
    {
        return new PairedChanges(reader, firstSnapshot, lastSnapshot, pairs);
    }

    /** Whether the group holds both kinds, so that the rows must be {@linkplain #count counted} before they are named. */
    public boolean pairs()
    {
        return pairs;
    }

    /**
     * The first pass: counts the keys of a batch of {@code rows} rows of {@code kind}. Every row of the group is counted,
     * before the first {@link #name}; only when the group {@link #pairs()}.
     */
    public void count(ChangeKind kind, int rows, LongColumn snapshots, LongColumn rowIds)
    {
        if (!pairs) {
            throw new IllegalStateException(reader + ": the rows of a change group that does not pair are not counted");
        }
        if (naming) {
            throw new IllegalStateException(reader + ": a change group's rows are counted before any is named");
        }
        Map<ChangeKey, Long> counts = keyCounts.get(kind);
        for (int row = 0; row < rows; row++) {
            counts.merge(new ChangeKey(checkedSnapshot(snapshots.get(row)), rowIds.get(row)), 1L, Long::sum);
        }
    }

    /**
     * The second pass: names the rows of a batch of {@code rows} rows of {@code kind} and returns how many rows come out.
     * The {@code i}-th of them is the batch's row {@link #rows()}{@code [i]} (ascending; a row matched by n rows of the
     * other side comes out n times, as DuckLake's join makes it) with change type {@link #types()}{@code [i]}. The arrays
     * are reused by the next call: copy what must outlive it. When the group does not pair, every row comes out once, an
     * {@code insert} or a {@code delete}.
     */
    public int name(ChangeKind kind, int rows, LongColumn snapshots, LongColumn rowIds)
    {
        naming = true;
        Map<ChangeKey, Long> otherSide = keyCounts.get(kind == ChangeKind.INSERTION ? ChangeKind.DELETION : ChangeKind.INSERTION);
        int count = 0;
        for (int row = 0; row < rows; row++) {
            long snapshot = checkedSnapshot(snapshots.get(row));
            List<ChangeType> named = pairs
                    ? ChangePairing.changeTypes(kind, new ChangeKey(snapshot, rowIds.get(row)), otherSide)
                    : ChangePairing.changeTypes(kind, 0);
            for (ChangeType type : named) {
                if (count == this.rows.length) {
                    int grown = Math.max(16, Math.max(rows, this.rows.length * 2));
                    this.rows = Arrays.copyOf(this.rows, grown);
                    this.types = Arrays.copyOf(this.types, grown);
                }
                this.rows[count] = row;
                this.types[count] = type;
                count++;
            }
        }
        return count;
    }

    /** The batch rows the last {@link #name} brought out; the first of its count are valid. */
    public int[] rows()
    {
        return rows;
    }

    /** The change types of the rows the last {@link #name} brought out; the first of its count are valid. */
    public ChangeType[] types()
    {
        return types;
    }

    /**
     * Refuses a batch of {@code rows} rows, read without naming (a group that does not pair, whose rows are inserts and
     * deletes as read), if a row's snapshot is outside the group's.
     */
    public void check(int rows, LongColumn snapshots)
    {
        for (int row = 0; row < rows; row++) {
            checkedSnapshot(snapshots.get(row));
        }
    }

    /** A row outside its group's snapshots could pair with a row of another group: the grouping was wrong for it. */
    private long checkedSnapshot(long snapshot)
    {
        if (snapshot < firstSnapshot || snapshot > lastSnapshot) {
            throw new InternalException(reader + ": a change of snapshot " + snapshot + " was read with the change group of snapshots " + firstSnapshot + " to "
                    + lastSnapshot + ", so its pairing into updates could be wrong; this is a bug in moraine's change-feed grouping");
        }
        return snapshot;
    }
}
