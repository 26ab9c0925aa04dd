package io.moraine.core.changes;

import io.moraine.core.row.Row;
import io.moraine.core.changes.ChangeGroups.Bounded;
import io.moraine.core.changes.ChangeGroups.BoundedGroup;
import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.row.TableKind;
import io.moraine.core.scan.ColumnDomain;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.FilePruning;
import io.moraine.core.scan.HiddenColumn;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.scan.ScanFilter;
import io.moraine.core.types.TableColumn;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What a predicate on a change feed's rows lets planning skip. The predicate is a {@link ScanFilter} over the table's
 * columns (by column id, as of the end snapshot) and {@code snapshot_id} (under {@link HiddenColumn#SNAPSHOT_ID}'s
 * id); any other domain is ignored. It only prunes: the engine still applies its whole predicate to the rows read.
 * A task's rows all fail the predicate when
 * <ul>
 * <li>its data file's column statistics rule the predicate out (insertions and deletions both report the file's own
 * values; inlined rows have no statistics), or</li>
 * <li>none of its snapshots is in the {@code snapshot_id} domain (a deletion's come from its delete files, inlined
 * rows' from the keys of their chunks and tombstones).</li>
 * </ul>
 * {@code table_insertions} and {@code table_deletions} skip such tasks. {@code table_changes} must not just skip them:
 * a deletion and an insertion of the same snapshot and row id are an update only while both are counted, so dropping
 * one half (say the preimage's file, whose old values fail a predicate the postimage passes) would turn the other
 * half's {@code update_postimage} into an {@code insert}. So in a group ({@link #prune(BoundedGroup)}) a failing task
 * is not read for rows, but stays as a {@linkplain ChangeGroup#keyTasks() key task}, counted for pairing, while a task
 * of the other kind that is read may share a snapshot with it; it is dropped only when none may, and a group with no
 * task to read is dropped whole. The rows' predicate (and any on {@code change_type}) is applied after pairing.
 */
public final class ChangePruning
{
    private final ChangeFeed feed;
    private final boolean none;
    private final Optional<ColumnDomain> snapshots;
    private final FilePruning files;
    private final boolean prunesFiles;
    private final Map<Long, Boolean> fileMayMatch = new HashMap<>();
    private Map<ChangeKind, NavigableSet<Long>> inlinedSnapshots;

    private ChangePruning(ChangeFeed feed, boolean none, Optional<ColumnDomain> snapshots, FilePruning files, boolean prunesFiles)
    {
        this.feed = feed;
        this.none = none;
        this.snapshots = snapshots;
        this.files = files;
        this.prunesFiles = prunesFiles;
    }

    /** Pruning of {@code feed}'s tasks by {@code filter} (values of any class {@code DuckLakeValues.normalize} accepts). */
    public static ChangePruning of(ChangeFeed feed, ScanFilter filter)
    {
        Map<Long, TableColumn> columns = feed.tableSchema().byId();
        Optional<ColumnDomain> snapshots = Optional.ofNullable(filter.domains().get(HiddenColumn.SNAPSHOT_ID.columnId()));
        Map<Long, ColumnDomain> columnDomains = new HashMap<>(filter.domains());
        columnDomains.keySet().retainAll(columns.keySet());
        ScanFilter columnFilter = ScanBuilder.normalized(ScanFilter.of(columnDomains), columns);
        FilePruning files = FilePruning.of(feed.end(), feed.tableId(), columnFilter, columns);
        return new ChangePruning(feed, filter.isNone(), snapshots, files, !files.statsColumns().isEmpty());
    }

    /** No pruning. */
    public static ChangePruning all(ChangeFeed feed)
    {
        return of(feed, ScanFilter.all());
    }

    /** Whether the predicate matches no row at all (a contradiction): nothing needs planning. */
    public boolean matchesNothing()
    {
        return none || snapshots.map(ColumnDomain::isNone).orElse(false);
    }

    /** Whether the snapshot rule needs a task's snapshots (deletions' come from reading their delete files). */
    public boolean prunesBySnapshot()
    {
        return snapshots.isPresent();
    }

    private boolean prunesNothing()
    {
        return !none && snapshots.isEmpty() && !prunesFiles;
    }

    /** A {@code table_changes} group with the tasks to read, the key tasks and the rest apart; empty when nothing is left to read. */
    Optional<ChangeGroup> prune(BoundedGroup group)
    {
        if (prunesNothing()) {
            return Optional.of(group.group());
        }
        if (matchesNothing()) {
            return Optional.empty();
        }
        List<Bounded> present = new ArrayList<>();
        for (Bounded task : group.tasks()) {
            if (task.task() instanceof InlinedChangesTask inlined) {
                inlinedBounds(inlined).ifPresent(present::add);
            }
            else {
                present.add(task);
            }
        }
        List<Bounded> read = present.stream().filter(this::mayMatch).toList();
        if (read.isEmpty()) {
            return Optional.empty();
        }
        List<ChangeTask> keys = new ArrayList<>();
        for (Bounded task : present) {
            if (!read.contains(task) && read.stream().anyMatch(other -> other.task().kind() != task.task().kind() && mayShareSnapshot(task, other))) {
                keys.add(task.task());
            }
        }
        return Optional.of(new ChangeGroup(group.first(), group.last(), read.stream().map(Bounded::task).toList(), keys));
    }

    /** Whether a task, with the snapshots its rows can have, may report matching rows. */
    boolean mayMatch(Bounded task)
    {
        return !matchesNothing() && snapshotsMayMatch(task.first(), task.last()) && valuesMayMatch(task.task());
    }

    /**
     * An inlined side's snapshots in its range, narrowed to those its chunks (insertions) or tombstones (deletions)
     * name when pruning; empty when it has none there.
     */
    Optional<Bounded> inlinedBounds(InlinedChangesTask task)
    {
        if (prunesNothing()) {
            return Optional.of(new Bounded(task, task.fromSnapshot(), task.toSnapshot()));
        }
        NavigableSet<Long> inRange = inlinedSnapshots(task.kind()).subSet(task.fromSnapshot(), true, task.toSnapshot(), true);
        return inRange.isEmpty() ? Optional.empty() : Optional.of(new Bounded(task, inRange.first(), inRange.last()));
    }

    private boolean mayShareSnapshot(Bounded a, Bounded b)
    {
        if (a.first() > b.last() || b.first() > a.last()) {
            return false;
        }
        if (a.task() instanceof InlinedChangesTask inlined) {
            NavigableSet<Long> own = inlinedSnapshots(inlined.kind()).subSet(a.first(), true, a.last(), true);
            if (b.task() instanceof InlinedChangesTask other) {
                NavigableSet<Long> theirs = inlinedSnapshots(other.kind());
                return own.stream().anyMatch(theirs::contains);
            }
            return !own.subSet(b.first(), true, b.last(), true).isEmpty();
        }
        return !(b.task() instanceof InlinedChangesTask) || mayShareSnapshot(b, a);
    }

    private boolean snapshotsMayMatch(long first, long last)
    {
        return snapshots.map(domain -> domain.ranges().stream().anyMatch(range -> range.overlaps(first, last))).orElse(true);
    }

    /** By the task's data file's statistics; inlined rows always may. */
    private boolean valuesMayMatch(ChangeTask task)
    {
        if (!prunesFiles) {
            return true;
        }
        return switch (task) {
            case InsertedRowsTask inserted -> fileMayMatch(inserted.file());
            case DeletedRowsTask deleted -> fileMayMatch(deleted.file());
            case InlinedChangesTask ignored -> true;
        };
    }

    private boolean fileMayMatch(DataFileTask file)
    {
        return fileMayMatch.computeIfAbsent(file.dataFileId(), id -> files.statsMayMatch(statsOf(id)));
    }

    /** The file's stats rows of the columns the filter tests (they stay until the file is physically deleted). */
    private Map<Long, Row> statsOf(long dataFileId)
    {
        Map<Long, Row> stats = new HashMap<>();
        try (RowCursor rows = feed.end().children(TableKind.FILE_COLUMN_STATS, feed.tableId(), dataFileId)) {
            rows.forEachRemaining(row -> {
                if (files.statsColumns().contains(row.getLong("column_id"))) {
                    stats.put(row.getLong("column_id"), row);
                }
            });
        }
        return stats;
    }

    /**
     * The snapshots the table's inlined rows were inserted in (their chunks' begin snapshots) and deleted in (their
     * tombstones'), read from the keys alone, once.
     */
    private NavigableSet<Long> inlinedSnapshots(ChangeKind kind)
    {
        if (inlinedSnapshots == null) {
            inlinedSnapshots = new EnumMap<>(ChangeKind.class);
            inlinedSnapshots.put(ChangeKind.INSERTION, keyComponents(InlineKeys.INSERT, 2));
            inlinedSnapshots.put(ChangeKind.DELETION, keyComponents(InlineKeys.ROW_TOMBSTONE, 2));
        }
        return inlinedSnapshots.get(kind);
    }

    private NavigableSet<Long> keyComponents(byte kind, int component)
    {
        NavigableSet<Long> values = new TreeSet<>();
        byte[] prefix = InlineKeys.prefix(kind, feed.tableId());
        try (KeyValueCursor cursor = feed.end().reader().scan(prefix, KeyWriter.prefixEnd(prefix), RowCursor.DEFAULT_PAGE_SIZE)) {
            cursor.forEachRemaining(entry -> values.add(InlineKeys.component(entry.key(), component)));
        }
        return values;
    }
}
