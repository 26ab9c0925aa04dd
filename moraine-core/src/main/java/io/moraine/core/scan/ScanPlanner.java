package io.moraine.core.scan;

import com.google.common.collect.Iterators;
import com.google.common.collect.PeekingIterator;
import io.moraine.core.catalog.AllowedLocations;
import io.moraine.core.catalog.TableFileLocations;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.Row;
import io.moraine.core.row.RowsOfDataFile;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.UnsupportedFeatureException;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.OptionalLong;

/**
 * Plans a scan's tasks as they are asked for: the inlined-rows task first, then the table's visible data files in
 * {@code data_file_id} order, each joined on the fly with its stats rows, partition values and inlined deletes (all
 * stored in that same order), so planning holds one file at a time and an engine can run the first tasks before the
 * last file is planned. Only the table's delete files are read up front (they are keyed by their own id).
 */
final class ScanPlanner
        implements TaskStream
{
    private final CatalogSnapshot snapshot;
    private final long tableId;
    private final String dataPath;
    private final FilePruning pruning;
    private final RowIdentityPruning identityPruning;
    private final ScanFilter filter;
    private final long limit;
    private final long maxSplitSize;
    private final boolean catalogCopies;
    private final AllowedLocations allowedLocations;
    private final Deque<ScanTask> ready = new ArrayDeque<>();
    private final List<AutoCloseable> opened = new ArrayList<>();

    private boolean started;
    private boolean done;
    private long filesPlanned;
    private long certainRows;
    private TableFileLocations locations;
    private Map<Long, List<DeleteFileRef>> deleteFiles;
    private PeekingIterator<Row> dataFiles;
    private PeekingIterator<Row> stats;
    private PeekingIterator<Row> partitionValues;
    private InlinedFileDeletes.Stream inlinedDeletes;
    private boolean inlinedDeletePending;
    private TinyFileCopies copies;
    private FileNameMappings nameMappings;

    ScanPlanner(CatalogSnapshot snapshot, long tableId, String dataPath, FilePruning pruning, RowIdentityPruning identityPruning, ScanFilter filter, long limit,
            long maxSplitSize, boolean catalogCopies, AllowedLocations allowedLocations)
    {
        this.allowedLocations = allowedLocations;
        this.catalogCopies = catalogCopies;
        this.identityPruning = identityPruning;
        this.snapshot = snapshot;
        this.tableId = tableId;
        this.dataPath = dataPath;
        this.pruning = pruning;
        this.filter = filter;
        this.limit = limit;
        this.maxSplitSize = maxSplitSize;
    }

    @Override
    public boolean hasNext()
    {
        while (ready.isEmpty() && !done) {
            planMore();
        }
        return !ready.isEmpty();
    }

    @Override
    public ScanTask next()
    {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.removeFirst();
    }

    private void planMore()
    {
        if (!started) {
            start();
            return;
        }
        if (!dataFiles.hasNext() || (limit >= 0 && certainRows >= limit)) {
            done = true;
            close();
            return;
        }
        Row file = dataFiles.next();
        filesPlanned++;
        long fileId = file.getLong("data_file_id");
        Map<Long, Row> fileStats = new HashMap<>();
        if (stats != null) {
            for (Row row : RowsOfDataFile.take(stats, fileId)) {
                if (pruning.statsColumns().contains(row.getLong("column_id"))) {
                    fileStats.put(row.getLong("column_id"), row);
                }
            }
        }
        if (partitionValues == null && file.getLong("partition_id") != null) {
            // Opened at the first partitioned file: an unpartitioned table never reads partition values.
            partitionValues = Iterators.peekingIterator(track(snapshot.filePartitionValues(tableId)));
        }
        FilePartitionValues fileValues = FilePartitionValues.of(partitionValues == null ? List.of() : RowsOfDataFile.take(partitionValues, fileId));
        long[] deleted = inlinedDeletesOf(fileId);
        if (!pruning.mayMatch(file, fileStats, fileValues)) {
            return;
        }
        refuseEncrypted(file);
        DataFileTask task = new DataFileTask(tableId, snapshot.id(), fileId, locations.readPath(file), file.getLong("file_size_bytes"),
                file.getLong("record_count"), optional(file.getLong("footer_size")), optional(file.getLong("row_id_start")),
                file.getLong("begin_snapshot"), optional(file.getLong("partial_max")), deleteFiles.getOrDefault(fileId, List.of()), deleted,
                optional(file.getLong("partition_id")), byKeyIndex(fileValues), 0, file.getLong("file_size_bytes"));
        task = nameMappings.of(file).map(task::withNameMapping).orElse(task);
        if (!identityPruning.mayMatch(task)) {
            return;
        }
        if (copies != null) {
            task = copies.dataFile(fileId, task.sizeBytes()).map(task::withCopy).orElse(task);
        }
        if (filter.isAll()) {
            certainRows += task.certainRows();
        }
        split(task);
    }

    /** How many data files planning has looked at so far (for tests of streaming). */
    long filesPlanned()
    {
        return filesPlanned;
    }

    private void start()
    {
        started = true;
        if (filter.isNone()) {
            done = true;
            return;
        }
        List<Long> inlinedVersions = snapshot.inlinedDataTables(tableId).stream().map(row -> row.getLong("schema_version")).toList();
        if (!inlinedVersions.isEmpty() && identityPruning.inlinedRowsMayMatch()) {
            ready.add(new InlinedRowsTask(tableId, snapshot.id(), snapshot.viewHeadSnapshotId(), inlinedVersions));
        }
        locations = TableFileLocations.forTable(snapshot, dataPath, tableId, allowedLocations);
        nameMappings = new FileNameMappings(snapshot, tableId);
        deleteFiles = new HashMap<>();
        Map<Long, io.moraine.core.store.KeyValue> deleteCopies = catalogCopies ? TinyFileCopies.deleteFiles(snapshot, tableId) : Map.of();
        try (RowCursor rows = snapshot.deleteFiles(tableId)) {
            rows.forEachRemaining(row -> {
                DeleteFileRef ref = new DeleteFileRef(locations.readPath(row), optional(row.getLong("file_size_bytes")), row.getLong("begin_snapshot"),
                        row.getString("format"));
                io.moraine.core.store.KeyValue copy = deleteCopies.get(row.getLong("delete_file_id"));
                if (copy != null && row.getLong("file_size_bytes") != null) {
                    ref = TinyFileCopies.usable(copy, row.getLong("file_size_bytes")).map(ref::withCopy).orElse(ref);
                }
                deleteFiles.computeIfAbsent(row.getLong("data_file_id"), id -> new ArrayList<>()).add(ref);
            });
        }
        if (catalogCopies) {
            copies = TinyFileCopies.open(snapshot, tableId);
            opened.add(copies);
        }
        dataFiles = Iterators.peekingIterator(track(snapshot.dataFiles(tableId)));
        if (!pruning.statsColumns().isEmpty()) {
            stats = Iterators.peekingIterator(track(snapshot.fileColumnStats(tableId)));
        }
        inlinedDeletes = new InlinedFileDeletes.Stream(snapshot.reader(), tableId, snapshot.id());
        opened.add(inlinedDeletes);
        inlinedDeletePending = inlinedDeletes.advance();
    }

    /** An encrypted file is refused rather than read wrongly. */
    private void refuseEncrypted(Row file)
    {
        if (file.getString("encryption_key") != null) {
            throw new UnsupportedFeatureException("data file " + file.getLong("data_file_id") + " (" + file.getString("path") + ") of table " + tableId
                    + " is encrypted, and moraine does not read encrypted lakes yet; read this table with DuckDB");
        }
    }

    /** Partition values in key order, NULL where a key has no value row or several ({@link FilePartitionValues}). */
    private static List<String> byKeyIndex(FilePartitionValues values)
    {
        int keys = values.keyCount();
        List<String> list = new ArrayList<>(keys);
        for (int key = 0; key < keys; key++) {
            list.add(values.single(key));
        }
        return list;
    }

    private long[] inlinedDeletesOf(long fileId)
    {
        long[] positions = new long[0];
        int count = 0;
        while (inlinedDeletePending && inlinedDeletes.dataFileId() <= fileId) {
            if (inlinedDeletes.dataFileId() == fileId) {
                if (count == positions.length) {
                    positions = java.util.Arrays.copyOf(positions, Math.max(16, count * 2));
                }
                positions[count++] = inlinedDeletes.position();
            }
            inlinedDeletePending = inlinedDeletes.advance();
        }
        return java.util.Arrays.copyOf(positions, count);
    }

    /** One task per {@code maxSplitSize} bytes of a file; each reads the row groups that start in its range. */
    private void split(DataFileTask task)
    {
        if (task.sizeBytes() <= maxSplitSize) {
            ready.add(task);
            return;
        }
        for (long start = 0; start < task.sizeBytes(); start += maxSplitSize) {
            ready.add(task.withSplit(start, Math.min(maxSplitSize, task.sizeBytes() - start)));
        }
    }

    private RowCursor track(RowCursor cursor)
    {
        opened.add(cursor);
        return cursor;
    }

    private static OptionalLong optional(Long value)
    {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }

    @Override
    public void close()
    {
        done = true;
        for (AutoCloseable resource : opened) {
            try {
                resource.close();
            }
            catch (Exception e) {
                throw new IllegalStateException("closing a catalog cursor failed", e);
            }
        }
        opened.clear();
    }
}
