package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeGroup;
import io.moraine.core.changes.ChangeGroups;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.changes.ChangePruning;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.DeletedRowsTask;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.changes.InsertedRowsTask;
import io.moraine.core.error.MoraineException;
import io.moraine.core.inline.read.InlinedRowsPieces;
import io.moraine.core.scan.HiddenColumn;
import io.moraine.core.scan.ScanFilter;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import io.moraine.files.TrinoLakeFileSystem;
import org.apache.arrow.memory.BufferAllocator;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.FixedSplitSource;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plans a change-feed call on the coordinator: the core's tasks of the range; for {@code table_insertions} and
 * {@code table_deletions} each task of that side is a split, for {@code table_changes} each of the core's
 * {@link ChangeGroups} (the tasks that may pair into updates read together, every other task alone).
 *
 * <p>Workers never open the catalog: each split carries the table columns the query reads, and the rows of its
 * group's inlined tasks, read here (at the end snapshot, once the tasks are planned) into the inline reader's bounded
 * pieces ({@code moraine.inlined-split-max-rows}, {@code moraine.inlined-split-max-size}). A group stays one split, as
 * pairing needs all its rows; the inlined rows of a table are cut into at most {@link #MAX_INLINED_RANGES} groups by
 * snapshot, so a split holds its share of them.
 */
public class ChangeFeedSplits
{
    /** How many pieces the inlined rows of a table are cut into: each is read by one split with the files of its snapshots. */
    static final int MAX_INLINED_RANGES = 16;

    private final MoraineCatalogHolder catalog;
    private final TrinoFileSystemFactory fileSystemFactory;
    private final long maxSplitSize;
    private final InlinedRowsPieces.Bounds inlinedBounds;

    @Inject
    public ChangeFeedSplits(MoraineCatalogHolder catalog, TrinoFileSystemFactory fileSystemFactory, MoraineConfig config)
    {
        this.catalog = catalog;
        this.fileSystemFactory = fileSystemFactory;
        this.maxSplitSize = config.getMaxSplitSize().toBytes();
        this.inlinedBounds = config.inlinedSplitBounds();
    }

    ConnectorSplitSource splits(ConnectorSession session, ChangeFeedTableHandle handle)
    {
        return new FixedSplitSource(plan(session, handle));
    }

    /**
     * The splits of the call's tasks that the handle's predicate does not rule out (the core's {@link ChangePruning}:
     * whole groups for {@code table_changes}, single tasks for the other two).
     */
    List<ConnectorSplit> plan(ConnectorSession session, ChangeFeedTableHandle handle)
    {
        try (CatalogSnapshot end = catalog.catalog().at(handle.endSnapshot())) {
            ChangeFeed feed = ChangeFeed.forTable(end, handle.tableId(), handle.startSnapshot()).withDataPath(catalog.dataPathOverride())
                    .withAllowedLocations(catalog.allowedLocations());
            ChangePruning pruning = ChangePruning.of(feed, pruningFilter(handle.constraint()));
            if (pruning.matchesNothing()) {
                return List.of();
            }
            List<ChangeTask> tasks = feed.planTasks();
            TrinoLakeFileSystem files = new TrinoLakeFileSystem(fileSystemFactory.create(session));
            List<ChangeGroup> groups = handle.output() == ChangeFeedOutput.CHANGES
                    ? ChangeGroups.of(feed, tasks, files, MAX_INLINED_RANGES, pruning)
                    : ChangeGroups.ofSide(feed, tasks, handle.output() == ChangeFeedOutput.INSERTIONS ? ChangeKind.INSERTION : ChangeKind.DELETION, files, pruning);
            List<TableColumn> columns = readColumns(handle, feed.tableSchema());
            List<ConnectorSplit> splits = new ArrayList<>();
            for (ChangeGroup group : groups) {
                List<List<byte[]>> inlined = new ArrayList<>();
                long inlinedBytes = 0;
                for (ChangeTask task : group.tasks()) {
                    inlined.add(task instanceof InlinedChangesTask side ? pieces(end, side, columns) : List.of());
                    inlinedBytes += inlined.getLast().stream().mapToLong(piece -> piece.length).sum();
                }
                for (ChangeTask task : group.keyTasks()) {
                    // Only counted for pairing: the snapshots and row ids every piece carries are all it needs.
                    inlined.add(task instanceof InlinedChangesTask side ? pieces(end, side, List.of()) : List.of());
                }
                splits.add(ChangeFeedSplit.of(group, columns, inlined, weight(group.tasks(), inlinedBytes)));
            }
            return splits;
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrinoReadingFiles(e);
        }
    }

    /** The core's filter of a change-feed predicate: the table's columns by id, {@code snapshot_id} as the hidden snapshot column. */
    static ScanFilter pruningFilter(TupleDomain<ChangeFeedColumnHandle> constraint)
    {
        if (constraint.isNone()) {
            return ScanFilter.none();
        }
        Map<MoraineColumnHandle, Domain> domains = new HashMap<>();
        constraint.getDomains().orElseThrow().forEach((column, domain) -> {
            switch (column.field()) {
                case SNAPSHOT_ID -> domains.put(MoraineColumnHandle.hidden(HiddenColumn.SNAPSHOT_ID), domain);
                case TABLE_COLUMN -> domains.put(column.tableColumn().orElseThrow(), domain);
                case ROWID, CHANGE_TYPE -> { }
            }
        });
        return TrinoFilters.toScanFilter(TupleDomain.withColumnDomains(domains));
    }

    /**
     * The table columns the call reads, each once, in the order of its projection (every column when Trino pruned
     * none), as the core's columns at the end snapshot.
     */
    static List<TableColumn> readColumns(ChangeFeedTableHandle handle, TableSchema schema)
    {
        Map<Long, TableColumn> byId = schema.byId();
        Set<TableColumn> read = new LinkedHashSet<>();
        for (ChangeFeedColumnHandle column : handle.projection().orElseGet(handle::allColumns)) {
            column.tableColumn().ifPresent(table -> read.add(byId.get(table.columnId())));
        }
        return List.copyOf(read);
    }

    /** The rows of one side of the inlined rows, read through the end snapshot into bounded pieces. */
    private List<byte[]> pieces(CatalogSnapshot end, InlinedChangesTask task, List<TableColumn> columns)
    {
        List<byte[]> pieces = new ArrayList<>();
        try (BufferAllocator allocator = catalog.newAllocator("inlined changes of table " + task.tableId());
                InlinedRowsPieces stream = InlinedRowsPieces.openChanges(end, task, columns, inlinedBounds, allocator)) {
            while (stream.hasNext()) {
                var piece = stream.next();
                if (piece.rows() > 0) {
                    pieces.add(piece.arrowStream());
                }
            }
        }
        return pieces;
    }

    /**
     * The share of a full split: the bytes of the data files read, as for scans, and of the inlined rows' pieces
     * against the piece bound, as for a scan's inlined rows.
     */
    private double weight(List<ChangeTask> tasks, long inlinedBytes)
    {
        double bytes = 0;
        for (ChangeTask task : tasks) {
            bytes += switch (task) {
                case InsertedRowsTask inserted -> inserted.file().sizeBytes();
                case DeletedRowsTask deleted -> deleted.file().sizeBytes();
                case InlinedChangesTask ignored -> 0;
            };
        }
        return Math.clamp(bytes / maxSplitSize + (double) inlinedBytes / inlinedBounds.maxBytes(), 0.05, 1.0);
    }
}
