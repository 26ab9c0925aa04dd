package io.moraine.core.verify;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.keyspace.KeyNames;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

import static io.moraine.core.verify.VerifyProblem.Check.COUNTER;
import static io.moraine.core.verify.VerifyProblem.Check.DANGLING_REFERENCE;
import static io.moraine.core.verify.VerifyProblem.Check.DUPLICATE_LIVE_ROW;
import static io.moraine.core.verify.VerifyProblem.Check.HEAD;
import static io.moraine.core.verify.VerifyProblem.Check.ROW_ENCODING;
import static io.moraine.core.verify.VerifyProblem.Check.ROW_PLACEMENT;
import static io.moraine.core.verify.VerifyProblem.Check.SNAPSHOT_RANGE;
import static io.moraine.core.verify.VerifyProblem.Check.UNKNOWN_KEY;

/**
 * The checks of the current and history subspaces: every row decodes under its own key and sits in the subspace its
 * end_snapshot says, no row lies after the head, every live row's references resolve to live rows (table to schema,
 * view to schema, column, data file, delete file and partition to table, delete file to data file), a data file has
 * at most one live delete file, and the head snapshot's counters and each table's next_row_id are past every id in
 * use. Current rows are scanned in kind-tag order, so every kind a live row refers to has been scanned before it.
 */
final class CatalogRowChecks
{
    static final String CATALOG_ROWS = "catalog rows";
    private static final int PAGE = 1024;

    /** An index entry a row needs: its value, and the row it is for. */
    record IndexEntry(byte[] value, String row) {}

    /** A data or delete file row, for the file checks. */
    record FileRow(String where, Long tableId, Row row) {}

    private final KeyValueReader reader;
    private final Findings findings;
    private final OptionalLong head;

    private final TreeMap<Long, long[]> snapshotCounters = new TreeMap<>();
    private final Set<Long> liveSchemas = new HashSet<>();
    private final Set<Long> liveTables = new HashSet<>();
    private final Map<Long, Long> liveDataFileTables = new HashMap<>();
    private final Map<Long, Long> anyDataFileTables = new HashMap<>();
    private final Map<Long, String> liveDeleteFiles = new HashMap<>();
    private final Map<Long, Row> newestSchemaRows = new HashMap<>();
    private final Map<Long, Row> newestTableRows = new HashMap<>();
    /** Each table's ducklake_table rows, current and history, as [begin_snapshot, end_snapshot) (end -1: open). */
    private final Map<Long, List<long[]>> tableLifetimes = new HashMap<>();
    private final Set<List<Long>> registeredInlinedTables = new HashSet<>();
    private final Map<Long, Long> nextRowIds = new HashMap<>();
    private final Map<Long, Long> rowIdEnds = new HashMap<>();
    private final List<FileRow> files = new ArrayList<>();
    private final Map<java.nio.ByteBuffer, IndexEntry> expectedIndexEntries = new HashMap<>();
    private long maxCatalogId = -1;
    private String maxCatalogIdWhere;
    private long maxFileId = -1;
    private String maxFileIdWhere;

    CatalogRowChecks(KeyValueReader reader, Findings findings, OptionalLong head)
    {
        this.reader = reader;
        this.findings = findings;
        this.head = head;
    }

    void run()
    {
        findings.expect(CATALOG_ROWS);
        scan(Subspace.CURRENT);
        scan(Subspace.HISTORY);
        checkHead();
        checkCounters();
    }

    private void scan(Subspace subspace)
    {
        try (KeyValueCursor cursor = reader.scan(subspace.start(), subspace.end(), PAGE)) {
            while (cursor.hasNext()) {
                KeyValue entry = cursor.next();
                Optional<TableKind> kind = entry.key().length < 2 ? Optional.empty() : TableKind.fromTag(entry.key()[1]);
                if (kind.isEmpty()) {
                    findings.problem(UNKNOWN_KEY, KeyNames.describe(entry.key()) + " " + hex(entry.key()), "no catalog table has this kind tag");
                    continue;
                }
                findings.checked(CATALOG_ROWS);
                Row row;
                try {
                    row = io.moraine.core.keyspace.RowValueCodec.decode(kind.get(), entry.key(), entry.value());
                }
                catch (CorruptionException e) {
                    findings.problem(ROW_ENCODING, KeyNames.describe(entry.key()) + " " + hex(entry.key()), e.getMessage());
                    continue;
                }
                String where = name(subspace, row);
                if (!Arrays.equals(RowKeys.key(subspace, row), entry.key())) {
                    findings.problem(ROW_ENCODING, where, "stored under key " + hex(entry.key()) + ", which is not the key its cells give");
                    continue;
                }
                check(subspace, row, where);
            }
        }
    }

    private void check(Subspace subspace, Row row, String where)
    {
        TableKind kind = row.kind();
        boolean live = subspace == Subspace.CURRENT;
        if (kind.isVersioned()) {
            if (live && row.get("end_snapshot") != null) {
                findings.problem(ROW_PLACEMENT, where, "a current row has end_snapshot " + row.get("end_snapshot") + " (ended rows belong in history)");
            }
            if (!live && row.get("end_snapshot") == null) {
                findings.problem(ROW_PLACEMENT, where, "a history row has no end_snapshot (open rows belong in current)");
            }
            checkWithinHead(row, where, "begin_snapshot");
            checkWithinHead(row, where, "end_snapshot");
        }
        else if (!live) {
            findings.problem(ROW_PLACEMENT, where, kind.tableName() + " is not versioned, so its rows never go to history");
        }
        switch (kind) {
            case SNAPSHOT -> {
                snapshotCounters.put(row.getLong("snapshot_id"), new long[] {orMinus1(row.getLong("next_catalog_id")), orMinus1(row.getLong("next_file_id"))});
                io.moraine.core.keyspace.SnapshotTimeKeys.of(row).ifPresent(key -> expectIndexEntry(key, new byte[0], where));
            }
            case SCHEMA -> {
                catalogId(row.getLong("schema_id"), where);
                newest(newestSchemaRows, row.getLong("schema_id"), row);
                if (live && !liveSchemas.add(row.getLong("schema_id"))) {
                    findings.problem(DUPLICATE_LIVE_ROW, where, "schema " + row.getLong("schema_id") + " has more than one live row");
                }
            }
            case TABLE -> {
                catalogId(row.getLong("table_id"), where);
                newest(newestTableRows, row.getLong("table_id"), row);
                if (row.getLong("table_id") != null) {
                    tableLifetimes.computeIfAbsent(row.getLong("table_id"), id -> new ArrayList<>())
                            .add(new long[] {orMinus1(row.getLong("begin_snapshot")), orMinus1(row.getLong("end_snapshot"))});
                }
                if (live) {
                    reference(where, "schema", row.getLong("schema_id"), liveSchemas.contains(row.getLong("schema_id")));
                    if (!liveTables.add(row.getLong("table_id"))) {
                        findings.problem(DUPLICATE_LIVE_ROW, where, "table " + row.getLong("table_id") + " has more than one live version");
                    }
                }
            }
            case VIEW -> {
                catalogId(row.getLong("view_id"), where);
                if (live) {
                    reference(where, "schema", row.getLong("schema_id"), liveSchemas.contains(row.getLong("schema_id")));
                }
            }
            case MACRO -> catalogId(row.getLong("macro_id"), where);
            case SORT_INFO -> catalogId(row.getLong("sort_id"), where);
            case PARTITION_INFO -> {
                catalogId(row.getLong("partition_id"), where);
                if (live) {
                    reference(where, "table", row.getLong("table_id"), liveTables.contains(row.getLong("table_id")));
                }
            }
            case COLUMN -> {
                if (live) {
                    reference(where, "table", row.getLong("table_id"), liveTables.contains(row.getLong("table_id")));
                }
            }
            case DATA_FILE -> dataFile(row, where, live);
            case DELETE_FILE -> deleteFile(row, where, live);
            case COLUMN_MAPPING -> fileId(row.getLong("mapping_id"), where);
            case TABLE_STATS -> {
                if (row.getLong("next_row_id") != null) {
                    nextRowIds.put(row.getLong("table_id"), row.getLong("next_row_id"));
                }
            }
            case INLINED_DATA_TABLES -> registeredInlinedTables.add(List.of(row.getLong("table_id"), row.getLong("schema_version")));
            default -> {}
        }
    }

    private void dataFile(Row row, String where, boolean live)
    {
        long fileId = row.getLong("data_file_id");
        Long tableId = row.getLong("table_id");
        fileId(fileId, where);
        anyDataFileTables.put(fileId, tableId);
        expectPrimaryKeyEntry(row, fileId, tableId, where);
        if (live) {
            reference(where, "table", tableId, liveTables.contains(tableId));
            liveDataFileTables.put(fileId, tableId);
        }
        Long start = row.getLong("row_id_start");
        Long count = row.getLong("record_count");
        if (start != null && count != null) {
            rowIdEnd(tableId, start + count);
        }
        files.add(new FileRow(where, tableId, row));
    }

    private void deleteFile(Row row, String where, boolean live)
    {
        Long tableId = row.getLong("table_id");
        fileId(row.getLong("delete_file_id"), where);
        expectPrimaryKeyEntry(row, row.getLong("delete_file_id"), tableId, where);
        if (live) {
            reference(where, "table", tableId, liveTables.contains(tableId));
            Long dataFileId = row.getLong("data_file_id");
            if (dataFileId != null) {
                Long dataFileTable = liveDataFileTables.get(dataFileId);
                reference(where, "data file", dataFileId, dataFileTable != null && dataFileTable.equals(tableId));
                // Each delete file holds all of its data file's deletions and ends the one before it.
                String other = liveDeleteFiles.putIfAbsent(dataFileId, where);
                if (other != null) {
                    findings.problem(DUPLICATE_LIVE_ROW, where, "data file " + dataFileId + " has another live delete file, " + other);
                }
            }
        }
        files.add(new FileRow(where, tableId, row));
    }

    private void expectPrimaryKeyEntry(Row row, Long id, Long tableId, String where)
    {
        if (id != null) {
            expectIndexEntry(RowKeys.primaryKeyIndex(row.kind(), id), java.nio.ByteBuffer.allocate(8).putLong(tableId == null ? -1 : tableId).array(), where);
        }
    }

    private void expectIndexEntry(byte[] key, byte[] value, String where)
    {
        expectedIndexEntries.put(java.nio.ByteBuffer.wrap(key), new IndexEntry(value, where));
    }

    /** The primary-key and snapshot-time index entries the rows need, by key. */
    Map<java.nio.ByteBuffer, IndexEntry> expectedIndexEntries()
    {
        return expectedIndexEntries;
    }

    private void reference(String where, String what, Long id, boolean resolves)
    {
        if (!resolves) {
            findings.problem(DANGLING_REFERENCE, where, "names " + what + " " + id + ", which has no live row");
        }
    }

    private void checkWithinHead(Row row, String where, String column)
    {
        Long snapshot = row.getLong(column);
        if (snapshot != null && head.isPresent() && snapshot > head.getAsLong()) {
            findings.problem(SNAPSHOT_RANGE, where, column + " " + snapshot + " is after the head snapshot " + head.getAsLong());
        }
    }

    private void catalogId(Long id, String where)
    {
        if (id != null && id > maxCatalogId) {
            maxCatalogId = id;
            maxCatalogIdWhere = where;
        }
    }

    private void fileId(Long id, String where)
    {
        if (id != null && id > maxFileId) {
            maxFileId = id;
            maxFileIdWhere = where;
        }
    }

    /** Records that table {@code tableId} uses row ids below {@code end} (data files here, inline chunks too). */
    void rowIdEnd(Long tableId, long end)
    {
        if (tableId != null) {
            rowIdEnds.merge(tableId, end, Math::max);
        }
    }

    private static void newest(Map<Long, Row> newest, Long id, Row row)
    {
        newest.merge(id, row, (old, candidate) -> orMinus1(candidate.getLong("begin_snapshot")) >= orMinus1(old.getLong("begin_snapshot")) ? candidate : old);
    }

    private void checkHead()
    {
        if (snapshotCounters.isEmpty()) {
            if (head.isPresent()) {
                findings.problem(HEAD, "system/head", "names snapshot " + head.getAsLong() + " but the store has no ducklake_snapshot rows");
            }
            return;
        }
        long newest = snapshotCounters.lastKey();
        if (head.isEmpty()) {
            findings.problem(HEAD, "system/head", "missing, but the store has snapshots up to " + newest);
            return;
        }
        if (!snapshotCounters.containsKey(head.getAsLong())) {
            findings.problem(HEAD, "system/head", "names snapshot " + head.getAsLong() + ", which has no ducklake_snapshot row");
        }
        if (newest != head.getAsLong()) {
            findings.problem(HEAD, "system/head", "names snapshot " + head.getAsLong() + " but the newest ducklake_snapshot row is " + newest);
        }
    }

    private void checkCounters()
    {
        long[] previous = null;
        long previousId = -1;
        for (Map.Entry<Long, long[]> entry : snapshotCounters.entrySet()) {
            long[] counters = entry.getValue();
            if (previous != null && (counters[0] < previous[0] || counters[1] < previous[1])) {
                findings.problem(COUNTER, "current/ducklake_snapshot(snapshot_id=" + entry.getKey() + ")", "next_catalog_id " + counters[0]
                        + " / next_file_id " + counters[1] + " are below snapshot " + previousId + "'s " + previous[0] + " / " + previous[1]);
            }
            previous = counters;
            previousId = entry.getKey();
        }
        if (head.isPresent() && snapshotCounters.containsKey(head.getAsLong())) {
            long[] counters = snapshotCounters.get(head.getAsLong());
            String where = "current/ducklake_snapshot(snapshot_id=" + head.getAsLong() + ")";
            if (maxCatalogId >= counters[0]) {
                findings.problem(COUNTER, where, "next_catalog_id " + counters[0] + " is not past catalog id " + maxCatalogId + " of " + maxCatalogIdWhere);
            }
            if (maxFileId >= counters[1]) {
                findings.problem(COUNTER, where, "next_file_id " + counters[1] + " is not past file id " + maxFileId + " of " + maxFileIdWhere);
            }
        }
    }

    /** After the inline checks added the chunks' row ids: each table's next_row_id is past every row id it used. */
    void checkNextRowIds()
    {
        rowIdEnds.forEach((tableId, end) -> {
            Long next = nextRowIds.get(tableId);
            if (next != null && next < end) {
                findings.problem(COUNTER, "current/ducklake_table_stats(table_id=" + tableId + ")",
                        "next_row_id " + next + " is not past row id " + (end - 1) + ", which the table uses");
            }
        });
    }

    boolean isRegisteredInlinedTable(long tableId, long schemaVersion)
    {
        return registeredInlinedTables.contains(List.of(tableId, schemaVersion));
    }

    Set<List<Long>> registeredInlinedTables()
    {
        return registeredInlinedTables;
    }

    /** The table of data file {@code dataFileId}, current or history, if there is a row for it. */
    Optional<Long> dataFileTable(long dataFileId)
    {
        return Optional.ofNullable(anyDataFileTables.get(dataFileId));
    }

    List<FileRow> files()
    {
        return files;
    }

    /**
     * Whether a snapshot that exists sees table {@code tableId}: one of its ducklake_table rows (current or history)
     * lives at it ({@code begin_snapshot <= s < end_snapshot}, an open row from its begin on).
     */
    boolean anySnapshotSeesTable(long tableId)
    {
        for (long[] lifetime : tableLifetimes.getOrDefault(tableId, List.of())) {
            long end = lifetime[1] < 0 ? Long.MAX_VALUE : lifetime[1];
            if (lifetime[0] < end && !snapshotCounters.subMap(lifetime[0], true, end, false).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    Optional<Row> newestSchemaRow(Long schemaId)
    {
        return Optional.ofNullable(newestSchemaRows.get(schemaId));
    }

    Optional<Row> newestTableRow(Long tableId)
    {
        return Optional.ofNullable(newestTableRows.get(tableId));
    }

    Set<Long> dataFileIds()
    {
        return anyDataFileTables.keySet();
    }

    private static long orMinus1(Long value)
    {
        return value == null ? -1 : value;
    }

    /** A row by its subspace, table and key cells: {@code current/ducklake_table(table_id=1, begin_snapshot=1)}. */
    static String name(Subspace subspace, Row row)
    {
        StringBuilder name = new StringBuilder(subspace.name().toLowerCase(java.util.Locale.ROOT)).append('/').append(row.kind().tableName()).append('(');
        int[] keys = row.kind().keyColumnIndexes();
        for (int i = 0; i < keys.length; i++) {
            name.append(i == 0 ? "" : ", ").append(row.kind().columns().get(keys[i]).name()).append('=').append(row.get(keys[i]));
        }
        if (row.duplicate() != 0) {
            name.append(", duplicate ").append(row.duplicate());
        }
        return name.append(')').toString();
    }

    static String hex(byte[] key)
    {
        return HexFormat.of().formatHex(key);
    }
}
