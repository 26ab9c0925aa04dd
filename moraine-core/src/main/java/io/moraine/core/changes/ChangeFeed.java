package io.moraine.core.changes;

import io.moraine.core.catalog.AllowedLocations;
import io.moraine.core.catalog.TableFileLocations;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.SnapshotExpiredException;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.DeleteFileRef;
import io.moraine.core.scan.InlinedFileDeletes;
import io.moraine.core.types.TableSchema;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * The change data feed of one table between two snapshots, both inclusive (reference §6): DuckLake's
 * {@code table_insertions} and {@code table_deletions} as {@link ChangeTask}s an engine reads with its own readers, and
 * {@code table_changes} by pairing the two sides with {@link ChangePairing}. The table is the one with the id at the
 * end snapshot, and rows are read with its columns there ({@link #tableSchema()}). Only the data files that began or
 * ended in the range, or whose delete files or inlined deletes changed in it, become tasks; with the store's
 * file-change index (format version 3), planning reads only those files' catalog rows, so its cost follows the changes
 * in the range rather than the table's size.
 */
public final class ChangeFeed
{
    private static final long[] NONE = new long[0];

    private final CatalogSnapshot end;
    private io.moraine.core.scan.FileNameMappings nameMappings;
    private final long tableId;
    private final long startSnapshot;
    private final TableSchema tableSchema;
    private final Optional<String> dataPathOverride;
    private final AllowedLocations allowedLocations;

    private ChangeFeed(CatalogSnapshot end, long tableId, long startSnapshot, TableSchema tableSchema, Optional<String> dataPathOverride,
            AllowedLocations allowedLocations)
    {
        this.allowedLocations = allowedLocations;
        this.end = end;
        this.tableId = tableId;
        this.startSnapshot = startSnapshot;
        this.tableSchema = tableSchema;
        this.dataPathOverride = dataPathOverride;
    }

    /**
     * The changes of table {@code tableId} from snapshot {@code startSnapshot} through {@code end}'s snapshot. A start
     * that is not a snapshot of the catalog is refused ({@link NotFoundException} after the newest,
     * {@link SnapshotExpiredException} for one expired), as is a table that does not exist at the end snapshot. A start
     * after the end is an empty feed, as in DuckLake. {@code end} must stay open while the tasks are planned and read.
     */
    public static ChangeFeed forTable(CatalogSnapshot end, long tableId, long startSnapshot)
    {
        requireNonNull(end, "end is null");
        requireStart(end, startSnapshot);
        TableSchema schema = TableSchema.of(end.columnTree(tableId));
        if (end.table(tableId).isEmpty() || schema.columns().isEmpty()) {
            throw new NotFoundException("table " + tableId + " does not exist at snapshot " + end.id()
                    + ", the end of the change feed; a change feed reads the table as its end snapshot has it: end at a snapshot where it exists");
        }
        return new ChangeFeed(end, tableId, startSnapshot, schema, Optional.empty(), AllowedLocations.registered("allowed locations"));
    }

    /**
     * The same feed, its data and delete files resolved under {@code dataPath} instead of the catalog's
     * {@code data_path} (the lake was moved), as {@code ScanBuilder.withDataPath} does for scans; empty keeps the
     * catalog's.
     */
    public ChangeFeed withDataPath(Optional<String> dataPath)
    {
        return new ChangeFeed(end, tableId, startSnapshot, tableSchema, dataPath.map(path -> path.endsWith("/") ? path : path + "/"),
                allowedLocations);
    }

    /** The same feed, its files checked against {@code allowed} before they are read (as {@code ScanBuilder.withAllowedLocations}). */
    public ChangeFeed withAllowedLocations(AllowedLocations allowed)
    {
        return new ChangeFeed(end, tableId, startSnapshot, tableSchema, dataPathOverride, requireNonNull(allowed, "allowed is null"));
    }

    /**
     * Where a change feed starting at {@code instant} begins, as DuckLake resolves a timestamp start bound: the first
     * snapshot at or after it. (The end bound resolves as reads do: {@link MoraineCatalog#asOf(Instant)}.)
     */
    public static long startAtOrAfter(MoraineCatalog catalog, Instant instant)
    {
        return catalog.firstSnapshotAtOrAfter(instant).orElseThrow(() -> new NotFoundException("catalog " + catalog.uri()
                + " has no snapshot at or after " + instant + ", so a change feed cannot start there; every snapshot is older. Start earlier."));
    }

    private static void requireStart(CatalogSnapshot end, long startSnapshot)
    {
        if (end.snapshotRow(startSnapshot).isPresent()) {
            return;
        }
        long newest = end.viewHeadSnapshotId();
        long oldest = end.oldestSnapshotId();
        if (startSnapshot > newest) {
            throw new NotFoundException("snapshot " + startSnapshot + " does not exist, so a change feed cannot start there; the catalog's snapshots are "
                    + oldest + " to " + newest);
        }
        throw new SnapshotExpiredException("snapshot " + startSnapshot + " was expired, so a change feed cannot start there; start at a snapshot that is "
                + "still there (the oldest is " + oldest + ", the newest " + newest + ")");
    }

    public long tableId()
    {
        return tableId;
    }

    public long startSnapshot()
    {
        return startSnapshot;
    }

    public long endSnapshot()
    {
        return end.id();
    }

    /** The end snapshot's view, which planning and pruning read through. */
    CatalogSnapshot end()
    {
        return end;
    }

    /** The table's columns at the end snapshot: every change row is read with them. */
    public TableSchema tableSchema()
    {
        return tableSchema;
    }

    /** The tasks: the inlined rows' insertions and deletions (when the table has inlined data), then the data files'. */
    public List<ChangeTask> planTasks()
    {
        List<ChangeTask> tasks = new ArrayList<>();
        if (startSnapshot > end.id()) {
            return tasks;
        }
        long from = startSnapshot;
        long to = end.id();
        List<Long> inlinedVersions = end.inlinedDataTables(tableId).stream().map(row -> row.getLong("schema_version")).toList();
        if (!inlinedVersions.isEmpty()) {
            long head = end.viewHeadSnapshotId();
            tasks.add(new InlinedChangesTask(tableId, ChangeKind.INSERTION, to, head, from, to, inlinedVersions));
            tasks.add(new InlinedChangesTask(tableId, ChangeKind.DELETION, to, head, from, to, inlinedVersions));
        }
        TableFileLocations locations = TableFileLocations.forTable(end, dataPathOverride.orElseGet(() -> end.facts().get(StoreFacts.DATA_PATH)), tableId, allowedLocations);
        Map<Long, TreeMap<Long, Long>> inlinedDeletes = InlinedFileDeletes.entriesBetween(end.reader(), tableId, from, to);
        if (end.indexesFileChanges()) {
            planChangedFiles(tasks, locations, inlinedDeletes, from, to);
        }
        else {
            planEveryFile(tasks, locations, inlinedDeletes, from, to);
        }
        return tasks;
    }

    /** Through the file-change index: only the data files with changes in the range, and their delete files, are read. */
    private void planChangedFiles(List<ChangeTask> tasks, TableFileLocations locations, Map<Long, TreeMap<Long, Long>> inlinedDeletes, long from, long to)
    {
        ChangedFiles changed = new ChangedFiles(end.reader(), tableId);
        SortedSet<Long> dataFileIds = changed.dataFileIds(from, to);
        dataFileIds.addAll(inlinedDeletes.keySet());
        for (long dataFileId : dataFileIds) {
            Optional<Row> file = changed.dataFile(dataFileId);
            if (file.isPresent()) {
                planFile(tasks, locations, file.get(), changed.deleteFiles(dataFileId, to), inlinedDeletes, from, to);
            }
        }
    }

    /** A store without the file-change index (format version 2 and older): the table's file rows are read once. */
    private void planEveryFile(List<ChangeTask> tasks, TableFileLocations locations, Map<Long, TreeMap<Long, Long>> inlinedDeletes, long from, long to)
    {
        Map<Long, List<Row>> deleteFiles = deleteFilesByDataFile(to);
        try (RowCursor files = end.everyVersion(TableKind.DATA_FILE, tableId)) {
            while (files.hasNext()) {
                Row file = files.next();
                planFile(tasks, locations, file, deleteFiles.getOrDefault(file.getLong("data_file_id"), List.of()), inlinedDeletes, from, to);
            }
        }
    }

    /** The tasks of one data file, given its delete files that began by the end (oldest first). */
    private void planFile(List<ChangeTask> tasks, TableFileLocations locations, Row file, List<Row> fileDeletes, Map<Long, TreeMap<Long, Long>> inlinedDeletes,
            long from, long to)
    {
        if (file.getLong("begin_snapshot") > to) {
            return;
        }
        DataFileTask read = fileToRead(locations, file);
        if (insertsInRange(file, from)) {
            tasks.add(new InsertedRowsTask(read, from, to));
        }
        planDeletions(tasks, read, file, locations, fileDeletes, Optional.ofNullable(inlinedDeletes.get(read.dataFileId())), from, to);
    }

    /** Reference §6.1 item 1: begun in the range, or a flush or merge output holding rows of it. */
    private static boolean insertsInRange(Row file, long from)
    {
        Long partialMax = file.getLong("partial_max");
        return file.getLong("begin_snapshot") >= from || (partialMax != null && partialMax >= from);
    }

    /**
     * Reference §6.2 items 1 to 3: one task per delete file of the data file written by the end, one for its retirement in
     * the range, with the inlined deletes in the range merged into the first of them (or a task of their own).
     */
    private void planDeletions(List<ChangeTask> tasks, DataFileTask read, Row file, TableFileLocations locations, List<Row> fileDeletes,
            Optional<TreeMap<Long, Long>> inlined, long from, long to)
    {
        List<DeletedRowsTask> fileTasks = new ArrayList<>();
        Optional<DeleteFileRef> previous = newestBefore(fileDeletes, from, locations);
        for (Row deleteFile : fileDeletes) {
            Long superseded = deleteFile.getLong("end_snapshot");
            // One replaced by the range's start holds only positions deleted before the range.
            if (superseded == null || superseded > from) {
                fileTasks.add(new DeletedRowsTask(read, Optional.of(deleteFileRef(locations, deleteFile)), previous, OptionalLong.empty(), NONE, NONE,
                        from, to));
            }
        }
        Long retiredAt = file.getLong("end_snapshot");
        if (retiredAt != null && from <= retiredAt && retiredAt <= to) {
            fileTasks.add(new DeletedRowsTask(read, Optional.empty(), newestBefore(fileDeletes, retiredAt, locations), OptionalLong.of(retiredAt), NONE,
                    NONE, from, to));
        }
        if (inlined.isPresent()) {
            long[] positions = inlined.get().keySet().stream().mapToLong(Long::longValue).toArray();
            long[] snapshots = inlined.get().values().stream().mapToLong(Long::longValue).toArray();
            if (fileTasks.isEmpty()) {
                fileTasks.add(new DeletedRowsTask(read, Optional.empty(), Optional.empty(), OptionalLong.empty(), positions, snapshots, from, to));
            }
            else {
                fileTasks.set(0, fileTasks.getFirst().withInlinedDeletes(positions, snapshots));
            }
        }
        tasks.addAll(fileTasks);
    }

    /** The delete file of a data file with the greatest begin snapshot before {@code snapshot}. */
    private static Optional<DeleteFileRef> newestBefore(List<Row> fileDeletes, long snapshot, TableFileLocations locations)
    {
        return fileDeletes.stream()
                .filter(row -> row.getLong("begin_snapshot") < snapshot)
                .max(Comparator.comparing((Row row) -> row.getLong("begin_snapshot")))
                .map(row -> deleteFileRef(locations, row));
    }

    /** Every delete file of the table that began by {@code to}, current or not, by data file, oldest first. */
    private Map<Long, List<Row>> deleteFilesByDataFile(long to)
    {
        Map<Long, List<Row>> byDataFile = new TreeMap<>();
        try (RowCursor rows = end.everyVersion(TableKind.DELETE_FILE, tableId)) {
            rows.forEachRemaining(row -> {
                if (row.getLong("begin_snapshot") <= to) {
                    byDataFile.computeIfAbsent(row.getLong("data_file_id"), id -> new ArrayList<>()).add(row);
                }
            });
        }
        byDataFile.values().forEach(rows -> rows.sort(Comparator.comparing((Row row) -> row.getLong("begin_snapshot"))));
        return byDataFile;
    }

    private static DeleteFileRef deleteFileRef(TableFileLocations locations, Row row)
    {
        return new DeleteFileRef(locations.readPath(row), optional(row.getLong("file_size_bytes")), row.getLong("begin_snapshot"),
                row.getString("format"));
    }

    /** The data file as a reader opens it: no deletes, no split. */
    private DataFileTask fileToRead(TableFileLocations locations, Row file)
    {
        if (nameMappings == null) {
            nameMappings = new io.moraine.core.scan.FileNameMappings(end, tableId);
        }
        DataFileTask task = new DataFileTask(tableId, end.id(), file.getLong("data_file_id"), locations.readPath(file), file.getLong("file_size_bytes"),
                file.getLong("record_count"), optional(file.getLong("footer_size")), optional(file.getLong("row_id_start")), file.getLong("begin_snapshot"),
                optional(file.getLong("partial_max")), List.of(), new long[0], optional(file.getLong("partition_id")), List.of(), 0,
                file.getLong("file_size_bytes"));
        return nameMappings.of(file).map(task::withNameMapping).orElse(task);
    }

    private static OptionalLong optional(Long value)
    {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
