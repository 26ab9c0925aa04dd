package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeGroup;
import io.moraine.core.changes.ChangeGroups;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.DeletedRowsTask;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.changes.InsertedRowsTask;
import io.moraine.core.error.MoraineException;
import io.moraine.files.TrinoLakeFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.FixedSplitSource;

import java.util.ArrayList;
import java.util.List;

/**
 * Plans a change-feed call on the coordinator: the core's tasks of the range; for {@code table_insertions} and
 * {@code table_deletions} each task of that side is a split, for {@code table_changes} each of the core's
 * {@link ChangeGroups} (the tasks that may pair into updates read together, every other task alone).
 */
public class ChangeFeedSplits
{
    /** How many pieces the inlined rows of a table are cut into: each is read by one split with the files of its snapshots. */
    static final int MAX_INLINED_RANGES = 16;

    private final MoraineCatalogHolder catalog;
    private final TrinoFileSystemFactory fileSystemFactory;
    private final long maxSplitSize;

    @Inject
    public ChangeFeedSplits(MoraineCatalogHolder catalog, TrinoFileSystemFactory fileSystemFactory, MoraineConfig config)
    {
        this.catalog = catalog;
        this.fileSystemFactory = fileSystemFactory;
        this.maxSplitSize = config.getMaxSplitSize().toBytes();
    }

    ConnectorSplitSource splits(ConnectorSession session, ChangeFeedFunctionHandle handle)
    {
        return new FixedSplitSource(plan(session, handle));
    }

    List<ConnectorSplit> plan(ConnectorSession session, ChangeFeedFunctionHandle handle)
    {
        try (CatalogSnapshot end = catalog.catalog().at(handle.endSnapshot())) {
            ChangeFeed feed = ChangeFeed.forTable(end, handle.tableId(), handle.startSnapshot());
            List<ChangeTask> tasks = feed.planTasks();
            List<ConnectorSplit> splits = new ArrayList<>();
            if (handle.output() == ChangeFeedOutput.CHANGES) {
                for (ChangeGroup group : ChangeGroups.of(feed, tasks, new TrinoLakeFileSystem(fileSystemFactory.create(session)), MAX_INLINED_RANGES)) {
                    splits.add(ChangeFeedSplit.of(group, weight(group.tasks())));
                }
                return splits;
            }
            ChangeKind side = handle.output() == ChangeFeedOutput.INSERTIONS ? ChangeKind.INSERTION : ChangeKind.DELETION;
            for (ChangeTask task : tasks) {
                if (task.kind() == side) {
                    splits.add(ChangeFeedSplit.of(new ChangeGroup(feed.startSnapshot(), feed.endSnapshot(), List.of(task)), weight(List.of(task))));
                }
            }
            return splits;
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    /** The share of a full split: the bytes of the data files read, as for scans; inlined rows count as a full split. */
    private double weight(List<ChangeTask> tasks)
    {
        double bytes = 0;
        for (ChangeTask task : tasks) {
            bytes += switch (task) {
                case InsertedRowsTask inserted -> inserted.file().sizeBytes();
                case DeletedRowsTask deleted -> deleted.file().sizeBytes();
                case InlinedChangesTask ignored -> maxSplitSize;
            };
        }
        return Math.clamp(bytes / maxSplitSize, 0.05, 1.0);
    }
}
