package io.moraine.core.tiny;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.TinyFileKeys;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * Keeps copies of tiny files in the catalog (docs/tiny-files.md): at the head snapshot, every current data and delete
 * file of at most {@code tiny_file_threshold_bytes} that has no copy yet is read whole (through the lake's
 * {@link LakeFileSystem}), checked (its length is the row's {@code file_size_bytes}, it starts and ends with Parquet's
 * {@code PAR1}), and written into the tiny-file subspace, one store batch per group of files. The batches are written
 * beside DuckLake's commits ({@link MoraineCatalog#writeBesideCommits}): they add no snapshot, and a copy is written
 * only if its file's row still exists when the batch lands, so a file pruned meanwhile leaves no copy behind. A file
 * that cannot be copied is skipped and counted, never an error for the catalog. A second run writes nothing.
 */
public final class TinyFilePublisher
{
    private static final byte[] PARQUET_MAGIC = {'P', 'A', 'R', '1'};

    /**
     * @param concurrency how many files are read at once
     * @param batchFiles at most this many copies per store batch
     * @param batchBytes at most about this many bytes of copies per store batch
     */
    public record Options(int concurrency, int batchFiles, long batchBytes)
    {
        public Options
        {
            if (concurrency < 1 || batchFiles < 1 || batchBytes < 1) {
                throw new InvalidArgumentException("tiny-file publishing needs a concurrency, a batch size in files and one in bytes of at least 1; was "
                        + concurrency + ", " + batchFiles + ", " + batchBytes);
            }
        }

        public static Options defaults()
        {
            return new Options(4, 256, 4L << 20);
        }
    }

    /** Told after each file is read (or skipped without a read). */
    public interface Progress
    {
        Progress NONE = (done, total) -> {};

        void filesDone(long done, long total);
    }

    /**
     * What a pass did. {@code files} counts the current data and delete files looked at; each lands in exactly one of
     * published, alreadyCopied, oversize, sizeMismatch (the object's length, or a missing file_size_bytes, disagrees with
     * the row), missing, unreadable, notParquet, goneBeforeWrite (the row was pruned while the file was read) or, after
     * a cancel, not done.
     */
    public record Result(long snapshotId, long thresholdBytes, long files, long published, long bytesWritten, long alreadyCopied, long oversize,
            long sizeMismatch, long missing, long unreadable, long notParquet, long goneBeforeWrite, long batches, boolean cancelled)
    {
        public long skipped()
        {
            return oversize + sizeMismatch + missing + unreadable + notParquet + goneBeforeWrite;
        }
    }

    private final LakeFileSystem files;
    private final Options options;
    private final Progress progress;
    private final AtomicBoolean cancelled = new AtomicBoolean();

    public TinyFilePublisher(LakeFileSystem files, Options options, Progress progress)
    {
        this.files = requireNonNull(files, "files is null");
        this.options = requireNonNull(options, "options is null");
        this.progress = requireNonNull(progress, "progress is null");
    }

    /** Publishes every table's tiny files with the default options, resolving paths under the catalog's data_path. */
    public static Result publish(MoraineCatalog catalog, LakeFileSystem files)
    {
        return new TinyFilePublisher(files, Options.defaults(), Progress.NONE).publish(catalog, Optional.empty(), Optional.empty());
    }

    /** Stops the pass: files not yet read are left, copies already written stay (a later run goes on). */
    public void cancel()
    {
        cancelled.set(true);
    }

    /**
     * Publishes the tiny files of {@code tableIds} (every table when empty), resolving relative paths under
     * {@code dataPath} (the catalog's data_path when empty). {@code catalog} must be open read-write.
     */
    public Result publish(MoraineCatalog catalog, Optional<String> dataPath, Optional<List<Long>> tableIds)
    {
        List<Candidate> candidates = new ArrayList<>();
        Counts counts = new Counts();
        long snapshotId;
        long threshold;
        try (CatalogSnapshot snapshot = catalog.latest()) {
            snapshotId = snapshot.id();
            threshold = snapshot.tinyFileThresholdBytes();
            if (threshold == 0) {
                return counts.result(snapshotId, 0, 0, false);
            }
            String root = dataPath.orElseGet(() -> snapshot.facts().get(StoreFacts.DATA_PATH));
            List<Long> tables = tableIds.orElseGet(() -> snapshot.tables().stream().map(row -> row.getLong("table_id")).toList());
            for (long tableId : tables) {
                String tablePath = snapshot.tablePath(root, tableId);
                collect(snapshot, tableId, TableKind.DATA_FILE, tablePath, threshold, candidates, counts);
                collect(snapshot, tableId, TableKind.DELETE_FILE, tablePath, threshold, candidates, counts);
            }
        }
        long total = counts.decided.get() + candidates.size();
        progress.filesDone(counts.decided.get(), total);
        ExecutorService readers = Executors.newFixedThreadPool(options.concurrency(), runnable -> {
            Thread thread = new Thread(runnable, "tiny-file-read");
            thread.setDaemon(true);
            return thread;
        });
        try {
            int next = 0;
            while (next < candidates.size() && !cancelled.get()) {
                int end = next;
                long bytes = 0;
                while (end < candidates.size() && end - next < options.batchFiles() && (end == next || bytes + candidates.get(end).size() <= options.batchBytes())) {
                    bytes += candidates.get(end).size();
                    end++;
                }
                publishGroup(catalog, candidates.subList(next, end), readers, counts, total);
                next = end;
            }
        }
        finally {
            readers.shutdownNow();
        }
        return counts.result(snapshotId, threshold, total, cancelled.get());
    }

    private record Candidate(long tableId, TableKind kind, long fileId, String path, long size) {}

    /** The current files of one kind of the table: decided at once (oversize, copied, no size) or kept to be read. */
    private static void collect(CatalogSnapshot snapshot, long tableId, TableKind kind, String tablePath, long threshold, List<Candidate> candidates,
            Counts counts)
    {
        Map<Long, Long> copied = new HashMap<>();
        try (KeyValueCursor copies = snapshot.tinyFileCopies(tableId, kind)) {
            while (copies.hasNext()) {
                KeyValue copy = copies.next();
                try {
                    if (TinyFileKeys.isWhole(copy.key(), copy.value())) {
                        copied.put(TinyFileKeys.idOf(copy.key()).fileId(), TinyFileKeys.recordedSize(copy.key(), copy.value()));
                    }
                }
                catch (io.moraine.core.error.CorruptionException e) {
                    // a corrupt copy is rewritten below
                }
            }
        }
        try (RowCursor rows = kind == TableKind.DATA_FILE ? snapshot.dataFiles(tableId) : snapshot.deleteFiles(tableId)) {
            while (rows.hasNext()) {
                Row row = rows.next();
                long fileId = row.getLong(kind == TableKind.DATA_FILE ? "data_file_id" : "delete_file_id");
                Long size = row.getLong("file_size_bytes");
                if (size == null) {
                    counts.decide(counts.sizeMismatch);
                }
                else if (size > threshold) {
                    counts.decide(counts.oversize);
                }
                else if (size.equals(copied.get(fileId))) {
                    counts.decide(counts.alreadyCopied);
                }
                else {
                    candidates.add(new Candidate(tableId, kind, fileId, CatalogPaths.filePath(tablePath, row), size));
                }
            }
        }
    }

    private void publishGroup(MoraineCatalog catalog, List<Candidate> group, ExecutorService readers, Counts counts, long total)
    {
        List<Future<byte[]>> reads = new ArrayList<>(group.size());
        for (Candidate candidate : group) {
            reads.add(readers.submit(() -> {
                byte[] bytes = cancelled.get() ? null : read(candidate, counts);
                progress.filesDone(counts.decided.incrementAndGet(), total);
                return bytes;
            }));
        }
        Map<Candidate, byte[]> read = new LinkedHashMap<>();
        for (int i = 0; i < group.size(); i++) {
            try {
                byte[] bytes = reads.get(i).get();
                if (bytes != null) {
                    read.put(group.get(i), bytes);
                }
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancel();
                return;
            }
            catch (ExecutionException e) {
                counts.unreadable.incrementAndGet();
            }
        }
        if (read.isEmpty()) {
            return;
        }
        Map<ByteBuffer, byte[]> written = catalog.writeBesideCommits(reader -> copiesOfLiveRows(reader, read, counts));
        if (!written.isEmpty()) {
            counts.batches.incrementAndGet();
        }
    }

    /** The copies of the files whose row (current or history) exists in {@code reader}; the others are counted gone. */
    private static Map<ByteBuffer, byte[]> copiesOfLiveRows(KeyValueReader reader, Map<Candidate, byte[]> read, Counts counts)
    {
        List<byte[]> rowKeys = new ArrayList<>();
        for (Candidate candidate : read.keySet()) {
            rowKeys.add(RowKeys.key(Subspace.CURRENT, candidate.kind(), candidate.tableId(), candidate.fileId()));
            rowKeys.add(RowKeys.key(Subspace.HISTORY, candidate.kind(), candidate.tableId(), candidate.fileId()));
        }
        List<byte[]> rows = reader.getAll(rowKeys);
        Map<ByteBuffer, byte[]> writes = new LinkedHashMap<>();
        int index = 0;
        for (Map.Entry<Candidate, byte[]> entry : read.entrySet()) {
            Candidate candidate = entry.getKey();
            boolean live = rows.get(index) != null || rows.get(index + 1) != null;
            index += 2;
            if (!live) {
                counts.goneBeforeWrite.incrementAndGet();
                continue;
            }
            writes.put(ByteBuffer.wrap(TinyFileKeys.key(candidate.tableId(), candidate.kind(), candidate.fileId())),
                    TinyFileKeys.encodeValue(candidate.kind(), candidate.size(), entry.getValue()));
            counts.published.incrementAndGet();
            counts.bytesWritten.addAndGet(entry.getValue().length);
        }
        return writes;
    }

    /** The file's bytes, or null (counted) when it is missing, of another size, unreadable or not Parquet. */
    private byte[] read(Candidate candidate, Counts counts)
    {
        try {
            InputFile file = files.newInputFile(candidate.path(), OptionalLong.empty());
            long length = file.getLength();
            if (length != candidate.size()) {
                counts.sizeMismatch.incrementAndGet();
                return null;
            }
            byte[] bytes = new byte[(int) length];
            try (SeekableInputStream in = file.newStream()) {
                in.readFully(bytes);
            }
            if (!isParquet(bytes)) {
                counts.notParquet.incrementAndGet();
                return null;
            }
            return bytes;
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            counts.missing.incrementAndGet();
            return null;
        }
        catch (IOException | RuntimeException e) {
            counts.unreadable.incrementAndGet();
            return null;
        }
    }

    static boolean isParquet(byte[] bytes)
    {
        if (bytes.length < 2 * PARQUET_MAGIC.length) {
            return false;
        }
        return java.util.Arrays.equals(bytes, 0, 4, PARQUET_MAGIC, 0, 4) && java.util.Arrays.equals(bytes, bytes.length - 4, bytes.length, PARQUET_MAGIC, 0, 4);
    }

    private static final class Counts
    {
        final AtomicLong decided = new AtomicLong();
        final AtomicLong published = new AtomicLong();
        final AtomicLong bytesWritten = new AtomicLong();
        final AtomicLong alreadyCopied = new AtomicLong();
        final AtomicLong oversize = new AtomicLong();
        final AtomicLong sizeMismatch = new AtomicLong();
        final AtomicLong missing = new AtomicLong();
        final AtomicLong unreadable = new AtomicLong();
        final AtomicLong notParquet = new AtomicLong();
        final AtomicLong goneBeforeWrite = new AtomicLong();
        final AtomicLong batches = new AtomicLong();

        void decide(AtomicLong outcome)
        {
            outcome.incrementAndGet();
            decided.incrementAndGet();
        }

        Result result(long snapshotId, long threshold, long files, boolean cancelled)
        {
            return new Result(snapshotId, threshold, files, published.get(), bytesWritten.get(), alreadyCopied.get(), oversize.get(), sizeMismatch.get(),
                    missing.get(), unreadable.get(), notParquet.get(), goneBeforeWrite.get(), batches.get(), cancelled);
        }
    }
}
