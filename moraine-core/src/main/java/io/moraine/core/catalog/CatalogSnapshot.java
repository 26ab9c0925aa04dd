package io.moraine.core.catalog;

import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.RowValueCodec;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.row.ColumnNode;
import io.moraine.core.row.Row;
import io.moraine.core.row.SnapshotChanges;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;
import io.moraine.core.store.StoreFacts;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * The catalog as of one snapshot S: every listing returns the rows visible at S ({@code begin_snapshot <= S AND
 * (end_snapshot IS NULL OR S < end_snapshot)}), read from one consistent view of the store. Child rows that carry
 * no lifecycle of their own (file stats, partition values, ...) are listed per table; their visibility is their
 * parent's. Close it to release the view.
 */
public final class CatalogSnapshot
        implements AutoCloseable
{
    private final KeyValueReader reader;
    private final Row snapshot;
    private final boolean isHead;
    private final Runnable closer;
    private StoreFacts facts;

    CatalogSnapshot(KeyValueReader reader, Row snapshot, boolean isHead, Runnable closer)
    {
        this.reader = requireNonNull(reader, "reader is null");
        this.snapshot = requireNonNull(snapshot, "snapshot is null");
        this.isHead = isHead;
        this.closer = requireNonNull(closer, "closer is null");
    }

    public long id()
    {
        return snapshot.getLong("snapshot_id");
    }

    /** The {@code ducklake_snapshot} row of S. */
    public Row snapshotRow()
    {
        return snapshot;
    }

    public Instant time()
    {
        return (Instant) snapshot.get("snapshot_time");
    }

    public long schemaVersion()
    {
        return snapshot.getLong("schema_version");
    }

    /** The next catalog id (schema, table, view, column, ...) a commit on top of S would assign. */
    public long nextCatalogId()
    {
        return snapshot.getLong("next_catalog_id");
    }

    /** The next file id (data or delete file) a commit on top of S would assign. */
    public long nextFileId()
    {
        return snapshot.getLong("next_file_id");
    }

    /** The lake at S as typed schemas, tables, views and table definitions: what engines read instead of rows. */
    public CatalogModel model()
    {
        return new CatalogModel(this);
    }

    /** The store facts (data_path, ...), read once on first use. */
    public StoreFacts facts()
    {
        if (facts == null) {
            facts = StoreFacts.read(reader);
        }
        return facts;
    }

    /** The store's tiny-file threshold as this view sees it (0: off; docs/tiny-files.md). */
    public long tinyFileThresholdBytes()
    {
        return io.moraine.core.keyspace.SystemKeys.decodeTinyFileThreshold(reader.get(io.moraine.core.keyspace.SystemKeys.TINY_FILE_THRESHOLD));
    }

    /**
     * The newest snapshot of the store as this view sees it (not S): a reader that plans from this view and reads more
     * through another view later can tell whether commits landed in between.
     */
    public long viewHeadSnapshotId()
    {
        byte[] value = reader.get(io.moraine.core.keyspace.SystemKeys.HEAD);
        return value == null ? id() : io.moraine.core.keyspace.SystemKeys.decodeHead(value);
    }

    /**
     * Whether a commit after {@code sinceSnapshotId} (up to this view's head) flushed the inlined data of {@code tableId}
     * (reference §11 item 21: a flush moves inlined rows into backdated files, so a file list taken before it and
     * inlined rows read after it miss those rows). One read of the head and one scan of the snapshot changes in
     * {@code (sinceSnapshotId, head]}.
     */
    public boolean inlinedDataFlushedSince(long tableId, long sinceSnapshotId)
    {
        long head = viewHeadSnapshotId();
        if (sinceSnapshotId >= head) {
            return false;
        }
        byte[] start = RowKeys.key(Subspace.CURRENT, TableKind.SNAPSHOT_CHANGES, sinceSnapshotId + 1);
        byte[] end = head == Long.MAX_VALUE
                ? KeyWriter.prefixEnd(RowKeys.prefix(Subspace.CURRENT, TableKind.SNAPSHOT_CHANGES))
                : RowKeys.key(Subspace.CURRENT, TableKind.SNAPSHOT_CHANGES, head + 1);
        try (KeyValueCursor changes = reader.scan(start, end, RowCursor.DEFAULT_PAGE_SIZE)) {
            while (changes.hasNext()) {
                KeyValue entry = changes.next();
                String changesMade = RowValueCodec.decode(TableKind.SNAPSHOT_CHANGES, entry.key(), entry.value()).getString("changes_made");
                if (SnapshotChanges.parse(changesMade).stream().anyMatch(change -> change.flushesInlinedDataOf(tableId))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Where the relative file paths of table {@code tableId} resolve at S (reference §4.2): its schema's path and its
     * own under {@code dataPath}.
     */
    public String tablePath(String dataPath, long tableId)
    {
        Row table = table(tableId).orElseThrow(() -> new io.moraine.core.error.NotFoundException("table " + tableId + " is not visible at snapshot " + id()));
        Row schema = visible(TableKind.SCHEMA, table.getLong("schema_id")).toList().getFirst();
        return CatalogPaths.tablePath(dataPath, schema, table);
    }

    /**
     * Whether the store holds the file-change index (format version 3 and later, docs/format.md): a change feed then
     * reads only the files with changes in its range. One read of the format record.
     */
    public boolean indexesFileChanges()
    {
        byte[] format = reader.get(io.moraine.core.keyspace.SystemKeys.FORMAT);
        return format != null && io.moraine.core.keyspace.SystemKeys.decodeFormatVersion(format) >= FormatUpgrade.FILE_CHANGE_INDEX;
    }

    /** The consistent view this snapshot reads through; inline reads beside the file list must use it. */
    public KeyValueReader reader()
    {
        return reader;
    }

    /**
     * Every version of the rows of a kind under leading key cells, visible at S or not (current and history rows as
     * this view holds them), merged in key order: what a change feed reads to find rows that began or ended in a range.
     */
    public RowCursor everyVersion(TableKind kind, Object... leadingKeyCells)
    {
        List<Subspace> subspaces = kind.isVersioned() ? List.of(Subspace.CURRENT, Subspace.HISTORY) : List.of(Subspace.CURRENT);
        return RowCursor.inKeyOrder(reader, kind, subspaces, leadingKeyCells, row -> true);
    }

    /** The {@code ducklake_snapshot} row of another snapshot, if this view still has it (not expired, not in the future). */
    public Optional<Row> snapshotRow(long snapshotId)
    {
        byte[] key = RowKeys.key(Subspace.CURRENT, TableKind.SNAPSHOT, snapshotId);
        byte[] value = reader.get(key);
        return value == null ? Optional.empty() : Optional.of(RowValueCodec.decode(TableKind.SNAPSHOT, key, value));
    }

    /** When another snapshot was committed, if this view still has it (not expired, not in the future). */
    public Optional<Instant> snapshotTime(long snapshotId)
    {
        return snapshotRow(snapshotId).map(row -> (Instant) row.get("snapshot_time"));
    }

    /** The oldest snapshot this view holds (older ones were expired). */
    public long oldestSnapshotId()
    {
        return first(visible(TableKind.SNAPSHOT), row -> true).map(row -> row.getLong("snapshot_id")).orElse(id());
    }

    /** The rows of a kind visible at S, optionally under leading key cells (e.g. a table id); current rows first. */
    public RowCursor visible(TableKind kind, Object... leadingKeyCells)
    {
        long id = id();
        // At the head no history row can be visible: every end_snapshot is <= head.
        List<Subspace> subspaces = !kind.isVersioned() || isHead ? List.of(Subspace.CURRENT) : List.of(Subspace.CURRENT, Subspace.HISTORY);
        return new RowCursor(reader, kind, subspaces, leadingKeyCells, RowCursor.DEFAULT_PAGE_SIZE, row -> row.isVisibleAt(id), List.of());
    }

    /**
     * {@link #visible}, in key order: current and history rows are merged by key (and a row found in both, moved by a
     * concurrent commit while a following view reads, comes once). Costs both subspaces' first page up front.
     */
    public RowCursor visibleInKeyOrder(TableKind kind, Object... leadingKeyCells)
    {
        long id = id();
        List<Subspace> subspaces = !kind.isVersioned() || isHead ? List.of(Subspace.CURRENT) : List.of(Subspace.CURRENT, Subspace.HISTORY);
        return RowCursor.inKeyOrder(reader, kind, subspaces, leadingKeyCells, row -> row.isVisibleAt(id));
    }

    /** Every row of an unversioned child kind under leading key cells (e.g. the file stats of one table). */
    public RowCursor children(TableKind kind, Object... leadingKeyCells)
    {
        return new RowCursor(reader, kind, List.of(Subspace.CURRENT), leadingKeyCells, RowCursor.DEFAULT_PAGE_SIZE, row -> true, List.of());
    }

    public List<Row> schemas()
    {
        return visible(TableKind.SCHEMA).toList();
    }

    public Optional<Row> schema(String name)
    {
        return first(visible(TableKind.SCHEMA), row -> name.equals(row.getString("schema_name")));
    }

    public List<Row> tables()
    {
        return visible(TableKind.TABLE).toList();
    }

    public List<Row> tables(long schemaId)
    {
        return visible(TableKind.TABLE).toList().stream().filter(row -> Objects.equals(row.getLong("schema_id"), schemaId)).toList();
    }

    public Optional<Row> table(long tableId)
    {
        return first(visible(TableKind.TABLE, tableId), row -> true);
    }

    /** Resolves a table by schema and table name, the way DuckLake's catalog does. */
    public Optional<Row> table(String schemaName, String tableName)
    {
        return schema(schemaName).flatMap(schema -> first(visible(TableKind.TABLE),
                row -> Objects.equals(row.getLong("schema_id"), schema.getLong("schema_id")) && tableName.equals(row.getString("table_name"))));
    }

    public List<Row> views(long schemaId)
    {
        return visible(TableKind.VIEW).toList().stream().filter(row -> Objects.equals(row.getLong("schema_id"), schemaId)).toList();
    }

    public List<Row> macros(long schemaId)
    {
        return visible(TableKind.MACRO, schemaId).toList();
    }

    /** The table's columns visible at S, parents before children, each level in column_order. */
    public List<Row> columns(long tableId)
    {
        return inColumnOrder(visible(TableKind.COLUMN, tableId).toList());
    }

    /** The table's columns visible at S assembled into a tree (struct fields, list elements, map keys and values). */
    public List<ColumnNode> columnTree(long tableId)
    {
        return ColumnNode.assemble(columns(tableId));
    }

    /**
     * The table's column tree as an earlier snapshot {@code earlierSnapshotId} saw it, read through this view's history
     * (empty when the table had no columns then, or their history rows were reclaimed by an expiry).
     */
    public List<ColumnNode> columnTreeAsOf(long tableId, long earlierSnapshotId)
    {
        List<Row> rows = RowCursor.inKeyOrder(reader, TableKind.COLUMN, List.of(Subspace.CURRENT, Subspace.HISTORY), new Object[] {tableId},
                row -> row.isVisibleAt(earlierSnapshotId)).toList();
        return ColumnNode.assemble(inColumnOrder(rows));
    }

    private static List<Row> inColumnOrder(List<Row> columns)
    {
        return columns.stream()
                .sorted(Comparator.comparing((Row row) -> row.getLong("parent_column"), Comparator.nullsFirst(Comparator.naturalOrder()))
                        .thenComparing(row -> row.getLong("column_order"), Comparator.nullsLast(Comparator.naturalOrder())))
                .toList();
    }

    /** The data files of the table visible at S, streamed by ascending {@code data_file_id}. */
    public RowCursor dataFiles(long tableId)
    {
        return visibleInKeyOrder(TableKind.DATA_FILE, tableId);
    }

    /** One data file of the table if visible at S: a key lookup, not a scan of the table's files. */
    public Optional<Row> dataFile(long tableId, long dataFileId)
    {
        try (RowCursor files = visible(TableKind.DATA_FILE, tableId, dataFileId)) {
            return files.hasNext() ? Optional.of(files.next()) : Optional.empty();
        }
    }

    /** The delete files of the table visible at S, streamed. */
    public RowCursor deleteFiles(long tableId)
    {
        return visible(TableKind.DELETE_FILE, tableId);
    }

    /**
     * The table's tiny-file copies of one kind (data or delete files), in file-id order, whatever their files'
     * visibility: join with {@link #dataFiles} / {@link #deleteFiles}. Values hold the files' bytes.
     */
    public io.moraine.core.store.KeyValueCursor tinyFileCopies(long tableId, TableKind kind)
    {
        byte[] prefix = io.moraine.core.keyspace.TinyFileKeys.kindPrefix(tableId, kind);
        return reader.scan(prefix, KeyWriter.prefixEnd(prefix), 64);
    }

    /** Per-file column statistics of the table's files (join with {@link #dataFiles} for visibility). */
    public RowCursor fileColumnStats(long tableId)
    {
        return children(TableKind.FILE_COLUMN_STATS, tableId);
    }

    public RowCursor filePartitionValues(long tableId)
    {
        return children(TableKind.FILE_PARTITION_VALUE, tableId);
    }

    public Optional<Row> tableStats(long tableId)
    {
        // A point read, not a prefix scan: every commit rewrites this row, and a scan would step over each
        // unflushed older version of it in SlateDB's memtable.
        byte[] key = io.moraine.core.keyspace.RowKeys.key(Subspace.CURRENT, TableKind.TABLE_STATS, tableId);
        byte[] value = reader.get(key);
        return value == null ? Optional.empty() : Optional.of(io.moraine.core.keyspace.RowValueCodec.decode(TableKind.TABLE_STATS, key, value));
    }

    public List<Row> tableColumnStats(long tableId)
    {
        return children(TableKind.TABLE_COLUMN_STATS, tableId).toList();
    }

    /** The partition spec in force at S, or empty for an unpartitioned table. */
    public Optional<Row> partitionInfo(long tableId)
    {
        return first(visible(TableKind.PARTITION_INFO, tableId), row -> true);
    }

    /** The key columns of a partition spec (any spec, visible or not: files keep the spec they were written under). */
    public List<Row> partitionColumns(long tableId, long partitionId)
    {
        return children(TableKind.PARTITION_COLUMN, tableId, partitionId).toList();
    }

    public Optional<Row> sortInfo(long tableId)
    {
        return first(visible(TableKind.SORT_INFO, tableId), row -> true);
    }

    public List<Row> sortExpressions(long tableId, long sortId)
    {
        return children(TableKind.SORT_EXPRESSION, tableId, sortId).toList();
    }

    /**
     * A {@code ducklake_metadata} option as it applies to one table (reference §2.1): the table-scoped value, else the
     * schema-scoped one, else the global one; empty when none is set (the caller applies DuckLake's default).
     */
    public Optional<String> option(String key, long schemaId, long tableId)
    {
        String global = null;
        String schema = null;
        String table = null;
        try (RowCursor rows = children(TableKind.METADATA)) {
            while (rows.hasNext()) {
                Row row = rows.next();
                if (!key.equals(row.getString("key"))) {
                    continue;
                }
                String scope = row.getString("scope");
                if (scope == null) {
                    global = row.getString("value");
                }
                else if (scope.equals("schema") && row.getLong("scope_id") == schemaId) {
                    schema = row.getString("value");
                }
                else if (scope.equals("table") && row.getLong("scope_id") == tableId) {
                    table = row.getString("value");
                }
            }
        }
        return Optional.ofNullable(table != null ? table : schema != null ? schema : global);
    }

    /** Tags of a schema, table or view visible at S (a NULL value means the tag was removed). */
    public List<Row> tags(long objectId)
    {
        return visible(TableKind.TAG, objectId).toList();
    }

    public List<Row> columnTags(long tableId)
    {
        return visible(TableKind.COLUMN_TAG, tableId).toList();
    }

    /** Every inlined-data table registered for the table; the registry is unversioned. */
    public List<Row> inlinedDataTables(long tableId)
    {
        return children(TableKind.INLINED_DATA_TABLES, tableId).toList();
    }

    private static Optional<Row> first(RowCursor cursor, Predicate<Row> predicate)
    {
        try (cursor) {
            while (cursor.hasNext()) {
                Row row = cursor.next();
                if (predicate.test(row)) {
                    return Optional.of(row);
                }
            }
            return Optional.empty();
        }
    }

    @Override
    public void close()
    {
        closer.run();
    }
}
