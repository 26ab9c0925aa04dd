package io.moraine.core.write;

import io.moraine.core.write.files.DataFileLayout;
import io.moraine.core.write.files.DataFileTarget;
import io.moraine.core.write.files.WrittenDataFile;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.CommitConflictException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.row.Row;
import io.moraine.core.row.SnapshotChanges;
import io.moraine.core.row.TableKind;
import io.moraine.core.tx.CommitPolicy;
import io.moraine.core.tx.StagedTransaction;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * A DuckLake write transaction any engine commits through: it begins at the catalog's head, collects DDL and data
 * changes by name, and {@link #commit()} writes exactly the rows DuckDB+DuckLake would write for them, as one snapshot
 * in one durable batch. Names are checked as each change is made, against the transaction's own view (its snapshot plus
 * its own changes), so a bad name fails at once with a typed error.
 * <p>
 * When another commit landed since the transaction's snapshot, the commit is checked against it with DuckLake's
 * conflict rules: concurrent appends land (every id is allocated again from the newer head), while, for example, a
 * delete against another delete of the same table, or an insert into a table dropped meanwhile, fails with a
 * {@link CommitConflictException} that names both sides. Not thread-safe; one per writer.
 */
public final class WriteTransaction
{
    /** DuckLake's retry budget: attempts in all, and the wait between them. */
    static final int MAX_ATTEMPTS = 100;
    private static final long RETRY_WAIT_MILLIS = 5;
    private static final long MAX_RETRY_WAIT_MILLIS = 200;
    /**
     * Per catalog, held by a transaction while it retries: a retry plans and commits under it, and first attempts wait
     * for a retry under way, so that writers of one process cannot starve each other's retries.
     */
    private static final java.util.Map<MoraineCatalog, java.util.concurrent.locks.ReentrantLock> RETRY_LOCKS =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    private final MoraineCatalog catalog;
    /** The lake's data and delete files; null when begun without them (then deletes of file rows are refused). */
    private LakeFileSystem files;
    private final long readSnapshotId;
    private final List<Consumer<CommitAttempt>> steps = new ArrayList<>();
    /** The transaction's view: its snapshot with its own steps applied, for checking each step as it is made. */
    private CatalogSnapshot viewSnapshot;
    private CommitAttempt view;
    private CommitInfo info = CommitInfo.NONE;
    private boolean done;

    private WriteTransaction(MoraineCatalog catalog, long readSnapshotId)
    {
        this.catalog = catalog;
        this.readSnapshotId = readSnapshotId;
    }

    /** Begins a transaction at the catalog's head. */
    public static WriteTransaction begin(MoraineCatalog catalog)
    {
        requireNonNull(catalog, "catalog is null");
        if (catalog.mode() != io.moraine.core.store.OpenMode.READ_WRITE) {
            throw new InvalidArgumentException("cannot write to catalog " + catalog.uri() + ": it is open " + catalog.mode()
                    + "; open it with OpenMode.READ_WRITE to write (the store's writer moves to this process when it commits)");
        }
        long head = catalog.headSnapshotId().orElseThrow(() -> new NotFoundException("catalog " + catalog.uri()
                + " has no snapshot; create the lake first (bin/moraine create, or ATTACH it through DuckDB)"));
        WriteTransaction transaction = new WriteTransaction(catalog, head);
        transaction.viewSnapshot = catalog.at(head);
        transaction.view = new CommitAttempt(transaction.viewSnapshot);
        return transaction;
    }

    /**
     * Begins a transaction at the catalog's head that can also delete rows of data files: their delete files are read
     * and written through {@code files}.
     */
    public static WriteTransaction begin(MoraineCatalog catalog, LakeFileSystem files)
    {
        WriteTransaction transaction = begin(catalog);
        transaction.files = requireNonNull(files, "files is null");
        transaction.view.files = files;
        return transaction;
    }

    /** The snapshot this transaction read. */
    public long readSnapshotId()
    {
        return readSnapshotId;
    }

    /** Sets the author, commit message and extra info recorded with the snapshot. */
    public WriteTransaction commitInfo(CommitInfo commitInfo)
    {
        this.info = requireNonNull(commitInfo, "commitInfo is null");
        return this;
    }

    public WriteTransaction createSchema(String name)
    {
        return step(attempt -> attempt.createSchema(name, false));
    }

    public WriteTransaction createSchemaIfNotExists(String name)
    {
        return step(attempt -> attempt.createSchema(name, true));
    }

    /** Drops an empty schema. */
    public WriteTransaction dropSchema(String name)
    {
        return step(attempt -> attempt.dropSchema(name));
    }

    public WriteTransaction createTable(NewTable table)
    {
        return step(attempt -> attempt.createTable(table));
    }

    public WriteTransaction dropTable(String schema, String table)
    {
        return step(attempt -> attempt.dropTable(schema, table));
    }

    public WriteTransaction renameTable(String schema, String table, String newName)
    {
        return step(attempt -> attempt.renameTable(schema, table, newName));
    }

    /** Adds a column (with its nested fields) at the end of the table, or a field to struct column {@code parentPath}. */
    public WriteTransaction addColumn(String schema, String table, List<String> parentPath, ColumnDefinition column)
    {
        List<String> parent = List.copyOf(parentPath);
        return step(attempt -> ColumnChanges.add(attempt.table(schema, table), parent, column, attempt.snapshotId));
    }

    public WriteTransaction addColumn(String schema, String table, ColumnDefinition column)
    {
        return addColumn(schema, table, List.of(), column);
    }

    /** Drops column {@code path} (a top-level name, or a struct field's path) with everything nested in it. */
    public WriteTransaction dropColumn(String schema, String table, List<String> path)
    {
        List<String> column = List.copyOf(path);
        return step(attempt -> ColumnChanges.drop(attempt.table(schema, table), column));
    }

    public WriteTransaction renameColumn(String schema, String table, List<String> path, String newName)
    {
        List<String> column = List.copyOf(path);
        return step(attempt -> ColumnChanges.rename(attempt.table(schema, table), column, newName, attempt.snapshotId));
    }

    /** Widens a column's type as DuckLake allows ({@link io.moraine.core.types.TypePromotion}). */
    public WriteTransaction setColumnType(String schema, String table, List<String> path, String newType)
    {
        List<String> column = List.copyOf(path);
        return step(attempt -> ColumnChanges.setType(attempt.table(schema, table), column, newType, attempt.snapshotId));
    }

    /** Sets a column's default to a DuckDB literal; null drops it. */
    public WriteTransaction setColumnDefault(String schema, String table, List<String> path, String literal)
    {
        List<String> column = List.copyOf(path);
        return step(attempt -> ColumnChanges.setDefault(attempt.table(schema, table), column, literal, attempt.snapshotId));
    }

    public WriteTransaction setColumnNullable(String schema, String table, List<String> path, boolean nullable)
    {
        List<String> column = List.copyOf(path);
        return step(attempt -> {
            TableDraft draft = attempt.table(schema, table);
            if (!nullable) {
                attempt.requireNoNulls(draft, column);
            }
            ColumnChanges.setNullable(draft, column, nullable, attempt.snapshotId);
        });
    }

    /** Sets the table's partition spec for data written from now on; an empty list resets it (unpartitioned). */
    public WriteTransaction setPartitioning(String schema, String table, List<PartitionField> keys)
    {
        List<PartitionField> copy = List.copyOf(keys);
        return step(attempt -> attempt.setPartitioning(schema, table, copy));
    }

    /** Sets the table's sort order; an empty list resets it. */
    public WriteTransaction setSortOrder(String schema, String table, List<SortField> keys)
    {
        List<SortField> copy = List.copyOf(keys);
        return step(attempt -> attempt.setSortOrder(schema, table, copy));
    }

    /** Sets the table's comment; null removes it. */
    public WriteTransaction setComment(String schema, String table, String comment)
    {
        return step(attempt -> attempt.setComment(schema, table, Optional.ofNullable(comment)));
    }

    public WriteTransaction setColumnComment(String schema, String table, List<String> path, String comment)
    {
        List<String> column = List.copyOf(path);
        return step(attempt -> attempt.setColumnComment(schema, table, column, Optional.ofNullable(comment)));
    }

    /** Creates a view whose SQL is in {@code dialect} (DuckDB reads only {@code duckdb} views; other engines their own). */
    public WriteTransaction createView(String schema, String view, String dialect, String sql)
    {
        return createView(schema, view, dialect, sql, Map.of());
    }

    /**
     * Creates a view with tags ({@code ducklake_tag} rows of the view: {@code comment}, or what an engine keeps of its
     * own view definition); they end when the view is dropped.
     */
    public WriteTransaction createView(String schema, String view, String dialect, String sql, Map<String, String> tags)
    {
        Map<String, String> copy = Map.copyOf(tags);
        return step(attempt -> attempt.createView(schema, view, dialect, sql, copy));
    }

    public WriteTransaction dropView(String schema, String view)
    {
        return step(attempt -> attempt.dropView(schema, view));
    }

    /**
     * The number of rows at most that one insert into the table may put into the catalog instead of a data file: the
     * table's resolved {@code data_inlining_row_limit} (0 when inlining is off). DuckLake applies it per statement.
     */
    public long inliningRowLimit(String schema, String table)
    {
        return view.data().inliningLimit(view.table(schema, table));
    }

    /**
     * Inserts {@code rows} into the catalog as inlined rows, as DuckDB's small inserts are; {@code rows} holds the
     * table's columns in {@link InlinedArrowSchema}'s types and must stay open until this transaction ends. One call is
     * one statement: it may hold at most {@link #inliningRowLimit} rows.
     */
    public WriteTransaction insertInlined(String schema, String table, VectorSchemaRoot rows)
    {
        requireNonNull(rows, "rows is null");
        return step(attempt -> {
            TableDraft draft = attempt.table(schema, table);
            long limit = attempt.data().inliningLimit(draft);
            if (rows.getRowCount() > limit) {
                throw new InvalidArgumentException(rows.getRowCount() + " rows exceed " + draft.qualifiedName() + "'s data_inlining_row_limit of "
                        + limit + "; write them to a data file (DataFileTarget) and add it with appendDataFiles instead");
            }
            if (rows.getRowCount() > 0) {
                draft.inlined.add(new InlinedBatch(rows));
            }
        });
    }

    /**
     * The last epoch streaming writer {@code writerId} committed up to this transaction's snapshot ({@link StreamEpochs}):
     * an epoch at or below it is a replay, to commit nothing.
     */
    public java.util.OptionalLong lastCommittedEpoch(String writerId)
    {
        requireOpen();
        return StreamEpochs.lastCommitted(viewSnapshot, writerId);
    }

    /** Whether epoch {@code epochId} of streaming writer {@code writerId} is already committed here: a replay, to commit nothing. */
    public boolean streamEpochCommitted(String writerId, long epochId)
    {
        requireOpen();
        return StreamEpochs.committed(viewSnapshot, writerId, epochId);
    }

    /**
     * Where and how to write data files of the table as this transaction sees it (a table it created or altered
     * included): paths, Parquet schema with field ids, writer settings, partition values of a row.
     */
    public DataFileLayout dataFileLayout(String schema, String table)
    {
        requireOpen();
        return view.dataFileLayout(view.table(schema, table));
    }

    /** Adds data files the engine wrote where the table's data-file target said. */
    public WriteTransaction appendDataFiles(String schema, String table, List<WrittenDataFile> files)
    {
        List<WrittenDataFile> copy = List.copyOf(files);
        return step(attempt -> attempt.table(schema, table).dataFiles.addAll(copy));
    }

    /**
     * Adds existing Parquet files that carry no field ids, each read through its name mapping (file column name →
     * column id), as {@code ducklake_add_data_files} adds them: the files stay where they are and are not DuckLake's
     * to delete. {@link io.moraine.core.write.maintenance.LakeMaintenance#addDataFiles} checks and measures them.
     */
    public WriteTransaction addMappedDataFiles(String schema, String table, List<MappedDataFile> files)
    {
        List<MappedDataFile> copy = List.copyOf(files);
        return step(attempt -> {
            TableDraft draft = attempt.table(schema, table);
            for (MappedDataFile mapped : copy) {
                draft.dataFiles.add(mapped.file());
                draft.nameMaps.put(mapped.file(), mapped.nameMap());
                if (!mapped.partitionKeyIndexes().isEmpty()) {
                    draft.partitionKeyIndexes.put(mapped.file(), mapped.partitionKeyIndexes());
                }
                if (!mapped.keyTypedStatistics().isEmpty()) {
                    draft.keyTypedStatistics.put(mapped.file(), mapped.keyTypedStatistics());
                }
            }
        });
    }

    /**
     * Replaces data files of the table with one the engine wrote from their rows (or with none), as DuckLake's merge of
     * adjacent files or rewrite of files with deletes commits it; see {@link CompactedFiles}. The sources must still be
     * current files of the table when the commit lands, else the commit fails with a conflict.
     */
    public WriteTransaction compact(String schema, String table, CompactedFiles compaction)
    {
        requireNonNull(compaction, "compaction is null");
        return step(attempt -> attempt.table(schema, table).compactions.add(compaction));
    }

    // ---- deletes and updates

    /**
     * Deletes rows of the table, as the engine's scan of this transaction's snapshot found them: rows of data files by
     * (data file id, position), inlined rows by row id. Rows deleted by several calls are deleted once.
     */
    public WriteTransaction deleteRows(String schema, String table, RowDeletes deletes)
    {
        requireNonNull(deletes, "deletes is null");
        Map<Long, NavigableSet<Long>> positions = new TreeMap<>(deletes.filePositions());
        if (!deletes.pathPositions().isEmpty()) {
            Map<String, Long> ids = TableDeletes.dataFileIds(view, view.table(schema, table), deletes.pathPositions().keySet());
            deletes.pathPositions().forEach((path, filePositions) -> positions.merge(ids.get(path), filePositions, (a, b) -> {
                TreeSet<Long> union = new TreeSet<>(a);
                union.addAll(b);
                return union;
            }));
        }
        List<Long> inlinedRowIds = List.copyOf(deletes.inlinedRowIds());
        return step(attempt -> {
            TableDraft draft = attempt.table(schema, table);
            positions.forEach((file, filePositions) -> draft.deletedPositions.computeIfAbsent(file, ignored -> new TreeSet<>()).addAll(filePositions));
            draft.deletedInlinedRowIds.addAll(inlinedRowIds);
        });
    }

    /**
     * The delete half of an overwrite by a condition ({@code INSERT OVERWRITE ... PARTITION (...)}, Spark's
     * {@code overwrite(condition)}): deletes the rows of the table at this transaction's snapshot that {@code filter}
     * (column domains by column id) accepts, decided exactly from partition values, file statistics and the inlined
     * rows themselves; {@code condition} names the condition in errors. Refused with an {@link
     * io.moraine.core.error.UnsupportedFeatureException} when a data file may hold rows that match and rows that do not.
     * Rows this transaction adds, before or after, are kept.
     */
    public WriteTransaction deleteWhere(String schema, String table, io.moraine.core.scan.ScanFilter filter, String condition)
    {
        requireNonNull(filter, "filter is null");
        requireOpen();
        TableDraft draft = view.table(schema, table);
        if (draft.created) {
            return this;
        }
        return deleteRows(schema, table, RowsMatching.filter(viewSnapshot, draft.tableId, draft.qualifiedName(), filter, condition));
    }

    /**
     * The delete half of a dynamic partition overwrite: deletes the rows of the table at this transaction's snapshot
     * that lie in the partitions the rows this transaction added to it so far fall in (its data files' partition values,
     * its inlined rows' values), under the table's current partition spec; of an unpartitioned table, every row. Call it
     * after the appends. Refused when a data file was written under another spec.
     */
    public WriteTransaction deletePartitionsWritten(String schema, String table)
    {
        requireOpen();
        TableDraft draft = view.table(schema, table);
        if (draft.created) {
            return this;
        }
        var spec = view.dataFileLayout(draft).partitionSpec();
        if (spec.isEmpty()) {
            return deleteRows(schema, table, RowsMatching.filter(viewSnapshot, draft.tableId, draft.qualifiedName(), io.moraine.core.scan.ScanFilter.all(),
                    "TRUE"));
        }
        var partitions = RowsMatching.partitionsOf(spec.get(), view.dataFileLayout(draft).columns(), draft.dataFiles,
                draft.inlined.stream().map(InlinedBatch::rows).toList(), draft.qualifiedName());
        return deleteRows(schema, table, RowsMatching.partitions(viewSnapshot, draft.tableId, draft.qualifiedName(), spec.get(), partitions));
    }

    /**
     * Deletes every row of the table this transaction sees, as DuckLake's {@code DELETE FROM t} / TRUNCATE: the rows
     * visible at the commit's base snapshot and the rows this transaction added before (their data files are left to
     * the engine, or to the clean-up of orphaned files). Rows added after it are kept.
     */
    public WriteTransaction truncate(String schema, String table)
    {
        return step(attempt -> {
            TableDraft draft = attempt.table(schema, table);
            draft.inlined.clear();
            draft.dataFiles.clear();
            draft.nameMaps.clear();
            draft.partitionKeyIndexes.clear();
            draft.keyTypedStatistics.clear();
            draft.inlinedWithRowIds.clear();
            draft.deletedPositions.clear();
            draft.deletedInlinedRowIds.clear();
            draft.truncated = !draft.created;
        });
    }

    /**
     * The insert half of an update that DuckLake inlines (at most {@link #inliningRowLimit} rows): {@code rows} (in
     * {@link InlinedArrowSchema}'s types, open until this transaction ends) keep the row ids they had, {@code rowIds[i]}
     * being row i's, so that the change feed pairs them with their deletes ({@link #deleteRows}) as update pre- and
     * post-images. The larger update writes its rows to a data file with the extra BIGINT column
     * {@code _ducklake_internal_row_id} (field id 2147483540) holding the kept ids, added with {@link #appendDataFiles}.
     */
    public WriteTransaction insertInlinedKeepingRowIds(String schema, String table, VectorSchemaRoot rows, long[] rowIds)
    {
        requireNonNull(rows, "rows is null");
        long[] ids = rowIds.clone();
        if (ids.length != rows.getRowCount()) {
            throw new InvalidArgumentException(rows.getRowCount() + " rows come with " + ids.length + " row ids; give one row id per row");
        }
        return step(attempt -> {
            TableDraft draft = attempt.table(schema, table);
            long limit = attempt.data().inliningLimit(draft);
            if (rows.getRowCount() > limit) {
                throw new InvalidArgumentException(rows.getRowCount() + " rows exceed " + draft.qualifiedName() + "'s data_inlining_row_limit of "
                        + limit + "; write them to a data file with the _ducklake_internal_row_id column and add it with appendDataFiles instead");
            }
            if (rows.getRowCount() > 0) {
                draft.inlinedWithRowIds.add(new InlinedRowsWithIds(rows, ids));
            }
        });
    }

    private WriteTransaction step(Consumer<CommitAttempt> step)
    {
        requireOpen();
        step.accept(view);
        steps.add(step);
        return this;
    }

    /**
     * Commits every change as one snapshot and returns its id; a transaction that changed nothing commits nothing and
     * returns its read snapshot. Retries on a newer head when DuckLake's conflict rules allow it.
     */
    public long commit()
    {
        requireOpen();
        boolean messageRequired = viewSnapshot.option("require_commit_message", -1, -1).map("true"::equals).orElse(false);
        if (messageRequired && !view.isEmpty() && (info.message() == null || info.message().isBlank())) {
            throw new InvalidArgumentException("this lake requires a commit message (option require_commit_message is true); set one with "
                    + "commitInfo(new CommitInfo(author, message, extraInfo)) and commit again — nothing was committed");
        }
        done = true;
        try {
            if (view.isEmpty()) {
                return readSnapshotId;
            }
            long base = readSnapshotId;
            List<SnapshotChanges.Change> mine = null;
            java.util.concurrent.locks.ReentrantLock retryLock = RETRY_LOCKS.computeIfAbsent(catalog, ignored -> new java.util.concurrent.locks.ReentrantLock());
            for (int attempt = 1; ; attempt++) {
                CommitAttempt planned = null;
                boolean committing = false;
                if (attempt == 1) {
                    // Let a retry under way land first.
                    retryLock.lock();
                    retryLock.unlock();
                }
                else {
                    retryLock.lock();
                }
                try (CatalogSnapshot snapshot = base == readSnapshotId ? null : catalog.at(base)) {
                    planned = base == readSnapshotId ? view : replay(snapshot);
                    if (planned != view) {
                        TableDeletes.checkUnchanged(view, planned);
                    }
                    StagedTransaction staged = catalog.begin(base);
                    ChangesMade changes = planned.stage(staged, info);
                    mine = changes.entries();
                    committing = true;
                    return staged.commit(CommitPolicy.RETRY);
                }
                catch (RuntimeException e) {
                    // Delete files embed the attempt's snapshot id: a retry writes its own (pitfall 9), these are orphans. A
                    // commit that failed otherwise may have landed, so its files stay.
                    if (e instanceof CommitConflictException || !committing) {
                        discardWrittenFiles(planned);
                    }
                    // Only a lost race for the head is retried; a conflict found while planning (DuckLake's rules) is final.
                    if (!(e instanceof CommitConflictException) || !committing) {
                        throw e;
                    }
                    if (attempt >= MAX_ATTEMPTS) {
                        throw new CommitConflictException("commit conflict: gave up after " + attempt + " attempts while other commits kept landing "
                                + "(the head is now " + catalog.headSnapshotId().orElseThrow() + "); nothing was committed. Retry the transaction, "
                                + "or commit less often from more writers");
                    }
                    // The commit that won may not be durable yet, and reads see only durable commits: then the head has
                    // not moved for this reader, and the attempt is simply made again after the pause.
                    long head = catalog.headSnapshotId().orElseThrow();
                    if (head != base) {
                        checkConflicts(mine, base, head);
                        base = head;
                    }
                }
                finally {
                    if (retryLock.isHeldByCurrentThread()) {
                        retryLock.unlock();
                    }
                }
                pause(attempt);
            }
        }
        finally {
            viewSnapshot.close();
        }
    }

    /** Discards every change; nothing was written. */
    public void rollback()
    {
        requireOpen();
        done = true;
        viewSnapshot.close();
    }

    private void discardWrittenFiles(CommitAttempt attempt)
    {
        if (attempt == null || files == null) {
            return;
        }
        for (String path : attempt.writtenFiles) {
            try {
                files.deleteFile(path);
            }
            catch (java.io.IOException | RuntimeException ignored) {
                // an orphan for the clean-up of old files
            }
        }
        attempt.writtenFiles.clear();
    }

    private CommitAttempt replay(CatalogSnapshot base)
    {
        CommitAttempt attempt = new CommitAttempt(base);
        attempt.files = files;
        steps.forEach(step -> step.accept(attempt));
        return attempt;
    }

    /** Refuses the commit when a commit in (base, head] conflicts with it by DuckLake's rules. */
    private void checkConflicts(List<SnapshotChanges.Change> mine, long base, long head)
    {
        try (CatalogSnapshot headSnapshot = catalog.at(head)) {
            for (long id = base + 1; id <= head; id++) {
                Optional<Row> changes = headSnapshot.reader() == null ? Optional.empty() : changesRow(headSnapshot, id);
                List<SnapshotChanges.Change> theirs = SnapshotChanges.parse(changes.map(row -> row.getString("changes_made")).orElse(null));
                Optional<String> conflict = io.moraine.core.tx.ChangeConflicts.check(mine, id, theirs,
                        schemaId -> headSnapshot.model().schema(schemaId).map(schema -> schema.name())
                                .or(() -> schemaNameAt(base, schemaId)),
                        // The re-planned attempt checks every file this transaction deletes from (TableDeletes.checkUnchanged).
                        true);
                if (conflict.isPresent()) {
                    throw new CommitConflictException("Transaction conflict: " + conflict.get() + "; nothing was committed. Begin a new transaction "
                            + "at the current head (" + head + ") and retry");
                }
            }
        }
    }

    private Optional<String> schemaNameAt(long snapshotId, long schemaId)
    {
        try (CatalogSnapshot snapshot = catalog.at(snapshotId)) {
            return snapshot.model().schema(schemaId).map(schema -> schema.name());
        }
    }

    private static Optional<Row> changesRow(CatalogSnapshot snapshot, long snapshotId)
    {
        try (var rows = snapshot.everyVersion(TableKind.SNAPSHOT_CHANGES, snapshotId)) {
            return rows.hasNext() ? Optional.of(rows.next()) : Optional.empty();
        }
    }

    private static void pause(int attempt)
    {
        long wait = (long) (Math.min(MAX_RETRY_WAIT_MILLIS, RETRY_WAIT_MILLIS * Math.pow(1.5, attempt - 1)) * (0.5 + ThreadLocalRandom.current().nextDouble() / 2));
        try {
            Thread.sleep(wait);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new io.moraine.core.error.OperationInterruptedException("interrupted while waiting to retry a commit; nothing was committed", e);
        }
    }

    private void requireOpen()
    {
        if (done) {
            throw new InvalidArgumentException("this write transaction has already been committed or rolled back; begin a new one");
        }
    }
}
