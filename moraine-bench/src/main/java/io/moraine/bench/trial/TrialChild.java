package io.moraine.bench.trial;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.inline.read.InlineBatch;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlineScan;
import io.moraine.core.inline.read.InlineSelection;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.SnapshotRows;
import io.moraine.core.error.CommitConflictException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.inline.flush.InlineFlusher;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The child process of {@code bin/moraine trial}: opens the store read-write and, on {@code committers} threads,
 * commits until it is killed — inlined inserts, inserts that write and register a Parquet file, deletes (of inlined
 * rows and, by position, of the thread's own Parquet files' rows; each also inlines one marker row) and, on the first
 * thread, flushes of the inlined rows ({@link InlineFlusher}, what {@code bin/moraine flush} runs). Each commit is
 * logged before and after ({@link TrialLog}). It announces phases on standard output ({@code P <phase>}) and, for the
 * phase the parent aims at, waits for a {@code go} line on standard input, so that the parent can kill it exactly there.
 */
public final class TrialChild
{
    static final List<String> PHASES = List.of("before-commit", "before-write", "after-commit-before-ack", "during-flush-upload");

    private final MoraineCatalog catalog;
    private final TrialLog log;
    private final String tablePath;
    private final Announcer announcer;
    private final ThreadLocal<Long> landed = new ThreadLocal<>();

    private TrialChild(MoraineCatalog catalog, TrialLog log, String tablePath, Announcer announcer)
    {
        this.catalog = catalog;
        this.log = log;
        this.tablePath = tablePath;
        this.announcer = announcer;
    }

    /** Args: store uri, data path, log file, committers, first batch number, seed, aimed phase (or none), store timeout millis, S3 endpoint (or none). */
    public static void main(String[] args)
            throws Exception
    {
        StoreUri store = StoreUri.parse(args[0]);
        String dataPath = args[1];
        Path logFile = Path.of(args[2]);
        int committers = Integer.parseInt(args[3]);
        long firstBatch = Long.parseLong(args[4]);
        long seed = Long.parseLong(args[5]);
        Announcer announcer = new Announcer(args[6]);
        StoreOptions options = TrialStore.options(store, java.time.Duration.ofMillis(Long.parseLong(args[7])), args[8]);
        TrialChild[] child = new TrialChild[1];
        io.moraine.core.tx.CommitListener listener = (snapshot, writes) -> {
            child[0].landed.set(snapshot);
            announcer.announce("before-write");
        };
        try (TrialLog log = new TrialLog(logFile); MoraineCatalog catalog = openRetrying(store, options, listener)) {
            child[0] = new TrialChild(catalog, log, dataPath + "main/t/", announcer);
            System.out.println("READY");
            System.out.flush();
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < committers; c++) {
                int committer = c;
                threads.add(Thread.ofPlatform().name("committer-" + c).start(() -> child[0].commitForever(committer,
                        firstBatch + committer * 10_000L, new Random(seed * 31 + committer))));
            }
            for (Thread thread : threads) {
                thread.join();
            }
        }
    }

    /**
     * Commits {@code commits} Parquet-registering and as many inlined inserts to an open catalog, alternating, with
     * nothing announced: a sample lake for measurements. Logs to {@code logFile}.
     */
    static void populate(MoraineCatalog catalog, String dataPath, Path logFile, int commits)
            throws Exception
    {
        try (TrialLog log = new TrialLog(logFile); BufferAllocator allocator = new RootAllocator()) {
            TrialChild child = new TrialChild(catalog, log, dataPath + "main/t/", new Announcer("none"));
            Map<String, OwnFile> files = new HashMap<>();
            for (int i = 0; i < commits; i++) {
                child.parquet(2 * i + 1, 20, files);
                child.inlined(allocator, 2 * i + 2, 10);
            }
        }
    }

    /**
     * Opens the store, trying again for as long as it does not answer in time (the fault proxy stalls and fails
     * requests): a trial's child is always killed by its parent, which gives up on a child that never gets going.
     */
    private static MoraineCatalog openRetrying(StoreUri store, StoreOptions options, io.moraine.core.tx.CommitListener listener)
    {
        for (int attempt = 1; ; attempt++) {
            try {
                return MoraineCatalog.open(store, OpenMode.READ_WRITE, options, listener);
            }
            catch (io.moraine.core.error.StoreUnavailableException e) {
                System.err.println("open attempt " + attempt + " failed: " + e.getMessage());
            }
        }
    }

    /** The rows of one Parquet file this thread registered, and which of its positions it deleted. */
    private record OwnFile(String name, long batch, int rows, TreeSet<Integer> deleted) {}

    private void commitForever(int committer, long firstBatch, Random random)
    {
        Map<String, OwnFile> ownFiles = new HashMap<>();
        int consecutiveFailures = 0;
        try (BufferAllocator allocator = new RootAllocator()) {
            for (long batch = firstBatch; ; batch++) {
                int dice = random.nextInt(100);
                CommitContent.Kind kind = committer == 0 && dice < 8 ? CommitContent.Kind.FLUSH
                        : dice < 50 ? CommitContent.Kind.INLINED : dice < 70 ? CommitContent.Kind.PARQUET : CommitContent.Kind.DELETE;
                CommitContent content = null;
                try {
                    landed.remove();
                    content = switch (kind) {
                        case INLINED -> inlined(allocator, batch, 1 + random.nextInt(20));
                        case PARQUET -> parquet(batch, 1 + random.nextInt(50), ownFiles);
                        case DELETE -> delete(allocator, batch, random, ownFiles);
                        case FLUSH -> flush(batch);
                    };
                    consecutiveFailures = 0;
                }
                catch (CommitConflictException e) {
                    // Refused before anything was written: logged by the commit methods.
                }
                catch (RuntimeException | java.io.IOException e) {
                    if (++consecutiveFailures > 50) {
                        System.err.println("committer " + committer + ": 50 failures in a row, the last: " + e);
                        e.printStackTrace();
                        System.exit(3);
                    }
                }
            }
        }
    }

    private CommitContent inlined(BufferAllocator allocator, long batch, int rows)
    {
        CommitContent content = new CommitContent(batch, CommitContent.Kind.INLINED, rows, List.of());
        try (CatalogSnapshot read = catalog.latest()) {
            StagedTransaction transaction = begin(read, 0, "inlined_insert:1");
            addInlinedRows(transaction, read, allocator, batch, rows);
            return commit(transaction, content);
        }
    }

    private CommitContent parquet(long batch, int rows, Map<String, OwnFile> ownFiles)
            throws java.io.IOException
    {
        CommitContent content = new CommitContent(batch, CommitContent.Kind.PARQUET, rows, List.of());
        String name = "ducklake-" + UUID.randomUUID() + ".parquet";
        long size = TrialParquet.write(LocalFileSystem.INSTANCE, tablePath + name, batch, rows);
        try (CatalogSnapshot read = catalog.latest()) {
            Row stats = read.tableStats(TrialTable.TABLE_ID).orElseThrow();
            long firstRowId = stats.getLong("next_row_id");
            long fileId = read.nextFileId();
            StagedTransaction transaction = begin(read, 1, "inserted_into_table:1");
            transaction.insert(Row.of(TableKind.DATA_FILE, fileId, TrialTable.TABLE_ID, read.id() + 1, null, null, name, true, "parquet", (long) rows, size,
                    null, firstRowId, null, null, null, null));
            transaction.update(stats, Map.of("record_count", stats.getLong("record_count") + rows, "next_row_id", firstRowId + rows,
                    "file_size_bytes", stats.getLong("file_size_bytes") + size));
            CommitContent acknowledged = commit(transaction, content);
            ownFiles.put(name, new OwnFile(name, batch, rows, new TreeSet<>()));
            return acknowledged;
        }
    }

    /**
     * Deletes up to five of this thread's rows live at the read snapshot — inlined rows by row id, rows of its own
     * unflushed Parquet files by position — and inlines one marker row, so that every commit but a flush inserts a row
     * naming its batch.
     */
    private CommitContent delete(BufferAllocator allocator, long batch, Random random, Map<String, OwnFile> ownFiles)
    {
        long ownPrefix = batch / 10_000;
        try (CatalogSnapshot read = catalog.latest()) {
            record Candidate(long id, long rowId, OwnFile file, int position) {}
            List<Candidate> candidates = new ArrayList<>();
            try (InlineScan scan = InlineReader.scan(read.reader(), TrialTable.TABLE_ID, new InlineSelection.AtSnapshot(read.id()),
                    Optional.of(List.of("id")), InlineReader.DEFAULT_WINDOW_ROWS, allocator)) {
                while (scan.hasNext()) {
                    InlineBatch window = scan.next();
                    VectorSchemaRoot root = window.root();
                    BigIntVector ids = (BigIntVector) root.getVector("id");
                    BigIntVector rowIds = (BigIntVector) root.getVector(InlineScan.ROW_ID.getName());
                    for (int i = 0; i < root.getRowCount(); i++) {
                        if (TrialTable.batchOf(ids.get(i)) / 10_000 == ownPrefix) {
                            candidates.add(new Candidate(ids.get(i), rowIds.get(i), null, -1));
                        }
                    }
                }
            }
            Map<String, Long> fileIds = new HashMap<>();
            try (var files = read.dataFiles(TrialTable.TABLE_ID)) {
                while (files.hasNext()) {
                    Row file = files.next();
                    if (ownFiles.containsKey(file.getString("path"))) {
                        fileIds.put(file.getString("path"), file.getLong("data_file_id"));
                    }
                }
            }
            for (OwnFile file : ownFiles.values()) {
                if (fileIds.containsKey(file.name())) {
                    for (int position = 0; position < file.rows(); position++) {
                        if (!file.deleted().contains(position)) {
                            candidates.add(new Candidate(TrialTable.rowId(file.batch(), position), -1, file, position));
                        }
                    }
                }
            }
            java.util.Collections.shuffle(candidates, random);
            List<Candidate> chosen = candidates.subList(0, Math.min(candidates.size(), 1 + random.nextInt(5)));
            long snapshot = read.id() + 1;
            StagedTransaction transaction = begin(read, 0, "deleted_from_table:1,inlined_insert:1");
            List<Long> inlinedRowIds = chosen.stream().filter(c -> c.file() == null).map(Candidate::rowId).toList();
            if (!inlinedRowIds.isEmpty()) {
                transaction.endInlinedRows(TrialTable.TABLE_ID, inlinedRowIds, snapshot);
            }
            Map<OwnFile, List<Long>> positions = new HashMap<>();
            chosen.stream().filter(c -> c.file() != null).forEach(c -> positions.computeIfAbsent(c.file(), f -> new ArrayList<>()).add((long) c.position()));
            positions.forEach((file, list) -> transaction.deleteInlinedFileRows(TrialTable.TABLE_ID, fileIds.get(file.name()), list, snapshot));
            addInlinedRows(transaction, read, allocator, batch, 1);
            CommitContent content = new CommitContent(batch, CommitContent.Kind.DELETE, 1, chosen.stream().map(Candidate::id).toList());
            try {
                commit(transaction, content);
            }
            catch (CommitConflictException e) {
                throw e;
            }
            catch (RuntimeException e) {
                // It may have landed: these files' deleted positions are unknown now, so they are deleted from no more.
                positions.keySet().forEach(file -> ownFiles.remove(file.name()));
                throw e;
            }
            positions.forEach((file, list) -> list.forEach(position -> file.deleted().add(position.intValue())));
            return content;
        }
    }

    private CommitContent flush(long batch)
    {
        CommitContent content = new CommitContent(batch, CommitContent.Kind.FLUSH, 0, List.of());
        log.intent(content);
        List<InlineFlusher.FlushedFile> files;
        try {
            files = InlineFlusher.flush(catalog, Optional.of(TrialTable.QUALIFIED_NAME), new AnnouncingFiles(LocalFileSystem.INSTANCE, announcer));
        }
        catch (CommitConflictException e) {
            log.conflict(content);
            throw e;
        }
        catch (RuntimeException e) {
            log.failed(content, e);
            throw e;
        }
        if (!files.isEmpty()) {
            announcer.announce("after-commit-before-ack");
            log.acknowledged(content, landed.get());
            WriterLoop.ack();
        }
        return content;
    }

    private StagedTransaction begin(CatalogSnapshot read, int filesUsed, String changes)
    {
        Row next = SnapshotRows.next(read.snapshotRow(), 0, 0, filesUsed);
        return catalog.begin(read.id()).insert(next).insert(SnapshotRows.changes(next.getLong("snapshot_id"), changes));
    }

    private static void addInlinedRows(StagedTransaction transaction, CatalogSnapshot read, BufferAllocator allocator, long batch, int rows)
    {
        Row stats = read.tableStats(TrialTable.TABLE_ID).orElseThrow();
        long firstRowId = stats.getLong("next_row_id");
        try (VectorSchemaRoot root = TrialTable.rows(allocator, batch, rows)) {
            transaction.insertInlined(TrialTable.TABLE_ID, 1, read.id() + 1, firstRowId, root);
        }
        transaction.update(stats, Map.of("record_count", stats.getLong("record_count") + rows, "next_row_id", firstRowId + rows));
    }

    private CommitContent commit(StagedTransaction transaction, CommitContent content)
    {
        log.commitLogged(content, announcer, transaction::commit);
        return content;
    }

    /** Prints phases; for the aimed one, waits until the parent answers (or kills). */
    static final class Announcer
    {
        private final String aimed;
        private final java.io.BufferedReader answers = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));

        Announcer(String aimed)
        {
            this.aimed = aimed;
        }

        /** Waits for the parent's go (or the end of its input). */
        void awaitGo()
        {
            synchronized (this) {
                try {
                    answers.readLine();
                }
                catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }

        void announce(String phase)
        {
            if (!phase.equals(aimed)) {
                return;
            }
            synchronized (this) {
                synchronized (System.out) {
                    System.out.println("P " + phase);
                    System.out.flush();
                }
                try {
                    answers.readLine();
                }
                catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }
    }

    /** The lake's files, announcing {@code during-flush-upload} as each file the flush writes is created. */
    private record AnnouncingFiles(LakeFileSystem files, Announcer announcer)
            implements LakeFileSystem
    {
        @Override
        public org.apache.parquet.io.InputFile newInputFile(String path, java.util.OptionalLong length)
        {
            return files.newInputFile(path, length);
        }

        @Override
        public org.apache.parquet.io.OutputFile newOutputFile(String path)
        {
            org.apache.parquet.io.OutputFile file = files.newOutputFile(path);
            return new org.apache.parquet.io.OutputFile()
            {
                @Override
                public org.apache.parquet.io.PositionOutputStream create(long blockSizeHint)
                        throws java.io.IOException
                {
                    return duringFlushUpload(file.create(blockSizeHint));
                }

                @Override
                public org.apache.parquet.io.PositionOutputStream createOrOverwrite(long blockSizeHint)
                        throws java.io.IOException
                {
                    return duringFlushUpload(file.createOrOverwrite(blockSizeHint));
                }

                @Override
                public boolean supportsBlockSize()
                {
                    return file.supportsBlockSize();
                }

                @Override
                public long defaultBlockSize()
                {
                    return file.defaultBlockSize();
                }

                @Override
                public String getPath()
                {
                    return file.getPath();
                }
            };
        }

        /** Says a flush's upload has begun (the parent may kill the child here), then hands the stream on. */
        private org.apache.parquet.io.PositionOutputStream duringFlushUpload(org.apache.parquet.io.PositionOutputStream stream)
        {
            announcer.announce("during-flush-upload");
            return stream;
        }

        @Override
        public void deleteFile(String path)
                throws java.io.IOException
        {
            files.deleteFile(path);
        }

        @Override
        public List<String> listFiles(String directory)
                throws java.io.IOException
        {
            return files.listFiles(directory);
        }

        @Override
        public List<ListedFile> listFilesWithModificationTimes(String directory)
                throws java.io.IOException
        {
            return files.listFilesWithModificationTimes(directory);
        }
    }
}
