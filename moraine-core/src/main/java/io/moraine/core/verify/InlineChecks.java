package io.moraine.core.verify;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.inline.ChunkId;
import io.moraine.core.inline.InlineArrow;
import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import static io.moraine.core.verify.CatalogRowChecks.hex;
import static io.moraine.core.verify.VerifyProblem.Check.INLINE_CHUNK;
import static io.moraine.core.verify.VerifyProblem.Check.INLINE_LOCATOR;
import static io.moraine.core.verify.VerifyProblem.Check.INLINE_ORPHAN;
import static io.moraine.core.verify.VerifyProblem.Check.INLINE_RECORD;
import static io.moraine.core.verify.VerifyProblem.Check.INLINE_SCHEMA;
import static io.moraine.core.verify.VerifyProblem.Check.SNAPSHOT_RANGE;
import static io.moraine.core.verify.VerifyProblem.Check.UNKNOWN_KEY;

/**
 * The checks of the inline subspace (docs/format.md, "Inline subspace"): schema records decode (a same-as-version
 * reference names a version that holds bytes), every registered inlined table has its schema and no dropped marker,
 * every insert chunk belongs to a registered inlined table and decodes against its schema with the row count its
 * header gives, chunks and locators match one to one, tombstones and file deletes are well formed and name existing
 * data files, and every inline record belongs to a table some snapshot sees (the expiry that removes a dropped table's
 * last ducklake_table row takes its inline records along). Keys sort by kind, so schemas are read before chunks and
 * chunks before locators.
 */
final class InlineChecks
{
    static final String INLINE_RECORDS = "inline records";
    static final String INLINE_CHUNKS = "inline chunks";
    static final String INLINED_ROWS = "inlined rows";
    private static final int PAGE = 256;

    private final KeyValueReader reader;
    private final Findings findings;
    private final CatalogRowChecks catalog;
    private final OptionalLong head;

    /** Stands for a version whose schema record is broken (reported already). */
    private static final Object BROKEN = new Object();

    /** Each version's decoded schema (kind 1), the version a same-as-version reference names, or {@link #BROKEN}. */
    private final Map<List<Long>, Object> schemas = new HashMap<>();
    private boolean referencesResolved;
    /** Each chunk's expected locator: its inclusive row id end and row id start. */
    private final Map<ChunkId, long[]> unlocatedChunks = new LinkedHashMap<>();
    private final Set<List<Long>> droppedVersions = new HashSet<>();
    /** Per table, how many inline records of each kind it has (kind names as in {@link #kindName}). */
    private final Map<Long, Map<String, Long>> recordsByTable = new java.util.TreeMap<>();
    /** Tables with inline records that no snapshot can see (found by {@link #run}). */
    private final List<Long> orphanTables = new ArrayList<>();

    InlineChecks(KeyValueReader reader, Findings findings, CatalogRowChecks catalog, OptionalLong head)
    {
        this.reader = reader;
        this.findings = findings;
        this.catalog = catalog;
        this.head = head;
    }

    void run()
    {
        findings.expect(INLINE_RECORDS);
        findings.expect(INLINE_CHUNKS);
        try (BufferAllocator allocator = new RootAllocator();
                KeyValueCursor cursor = reader.scan(Subspace.INLINE.start(), Subspace.INLINE.end(), PAGE)) {
            while (cursor.hasNext()) {
                KeyValue entry = cursor.next();
                findings.checked(INLINE_RECORDS);
                check(entry.key(), entry.value(), allocator);
            }
        }
        resolveReferences();
        for (Map.Entry<ChunkId, long[]> chunk : unlocatedChunks.entrySet()) {
            findings.problem(INLINE_LOCATOR, chunkName(chunk.getKey()), "has no locator (expected one ending at row id " + chunk.getValue()[0] + ")");
        }
        for (Map.Entry<Long, Map<String, Long>> table : recordsByTable.entrySet()) {
            if (!catalog.anySnapshotSeesTable(table.getKey())) {
                orphanTables.add(table.getKey());
                long records = table.getValue().values().stream().mapToLong(Long::longValue).sum();
                findings.problem(INLINE_ORPHAN, "inline records of table " + table.getKey(), records + " records (" + describe(table.getValue())
                        + ") of a table no snapshot can see any more: no ducklake_table row of it lives at a snapshot that exists. "
                        + "Nothing reads them; they are left over from a DROP TABLE whose expiry did not take them");
            }
        }
        for (List<Long> registered : catalog.registeredInlinedTables()) {
            String name = "ducklake_inlined_data_" + registered.get(0) + "_" + registered.get(1);
            if (!schemas.containsKey(registered)) {
                findings.problem(INLINE_SCHEMA, name, "is registered in ducklake_inlined_data_tables but has no inline schema record");
            }
            if (droppedVersions.contains(registered)) {
                findings.problem(INLINE_SCHEMA, name, "is registered in ducklake_inlined_data_tables but marked dropped by a flush");
            }
        }
    }

    List<Long> orphanTables()
    {
        return List.copyOf(orphanTables);
    }

    private void check(byte[] key, byte[] value, BufferAllocator allocator)
    {
        int components = (key.length - 2) / 8;
        int expected = switch (key.length < 2 ? -1 : key[1]) {
            case InlineKeys.SCHEMA, InlineKeys.SCHEMA_DROPPED -> 2;
            case InlineKeys.INSERT -> 4;
            case InlineKeys.ROW_TOMBSTONE, InlineKeys.FILE_DELETE -> 3;
            case InlineKeys.FILE_DELETE_TABLE -> 1;
            case InlineKeys.CHUNK_LOCATOR -> 5;
            default -> -1;
        };
        if (expected < 0 || key.length != 2 + 8 * expected) {
            findings.problem(UNKNOWN_KEY, "inline " + hex(key), expected < 0 ? "no inline record kind " + (key.length < 2 ? "" : key[1])
                    : "an inline key of kind " + key[1] + " has " + expected + " components, this one " + components);
            return;
        }
        long tableId = InlineKeys.component(key, 0);
        recordsByTable.computeIfAbsent(tableId, id -> new java.util.TreeMap<>()).merge(kindName(key[1]), 1L, Long::sum);
        switch (key[1]) {
            case InlineKeys.SCHEMA -> schema(key, value, tableId);
            case InlineKeys.INSERT -> chunk(key, value, allocator);
            case InlineKeys.CHUNK_LOCATOR -> locator(key, value);
            case InlineKeys.ROW_TOMBSTONE -> tombstone(key, value, tableId);
            case InlineKeys.FILE_DELETE -> fileDelete(key, value, tableId);
            case InlineKeys.SCHEMA_DROPPED -> droppedVersions.add(List.of(tableId, InlineKeys.component(key, 1)));
            default -> {}
        }
    }

    private void schema(byte[] key, byte[] value, long tableId)
    {
        List<Long> version = List.of(tableId, InlineKeys.component(key, 1));
        try {
            OptionalLong same = InlineArrow.sameAsVersion(key, value);
            schemas.put(version, same.isPresent() ? (Object) same.getAsLong() : InlineArrow.decodeSchema(key, value));
        }
        catch (CorruptionException e) {
            schemas.put(version, BROKEN);
            findings.problem(INLINE_SCHEMA, "inline schema of ducklake_inlined_data_" + tableId + "_" + version.get(1), e.getMessage());
        }
    }

    /**
     * Resolves every same-as-version reference (one hop, onto a version that holds bytes) once all schema records are
     * read: they sort before every chunk.
     */
    private void resolveReferences()
    {
        if (referencesResolved) {
            return;
        }
        referencesResolved = true;
        for (Map.Entry<List<Long>, Object> entry : schemas.entrySet()) {
            if (entry.getValue() instanceof Long target) {
                Object resolved = schemas.get(List.of(entry.getKey().get(0), target));
                if (resolved instanceof Schema) {
                    entry.setValue(resolved);
                }
                else {
                    entry.setValue(BROKEN);
                    findings.problem(INLINE_SCHEMA, "inline schema of ducklake_inlined_data_" + entry.getKey().get(0) + "_" + entry.getKey().get(1),
                            "refers to version " + target + ", which holds no schema bytes");
                }
            }
        }
    }

    /** The decoded schema of a version; null (with a problem, once) when there is none. */
    private Schema schemaOf(long tableId, long version, String where)
    {
        resolveReferences();
        Object record = schemas.get(List.of(tableId, version));
        if (record == null) {
            findings.problem(INLINE_SCHEMA, where, "has no inline schema record for version " + version);
            schemas.put(List.of(tableId, version), BROKEN);
            return null;
        }
        return record instanceof Schema schema ? schema : null;
    }

    private void chunk(byte[] key, byte[] value, BufferAllocator allocator)
    {
        ChunkId chunk = InlineKeys.chunkOfInsert(key);
        String where = chunkName(chunk);
        findings.checked(INLINE_CHUNKS);
        if (!catalog.isRegisteredInlinedTable(chunk.tableId(), chunk.schemaVersion())) {
            findings.problem(INLINE_CHUNK, where, "belongs to ducklake_inlined_data_" + chunk.tableId() + "_" + chunk.schemaVersion()
                    + ", which ducklake_inlined_data_tables does not register");
        }
        if (head.isPresent() && chunk.beginSnapshot() > head.getAsLong()) {
            findings.problem(SNAPSHOT_RANGE, where, "begins at snapshot " + chunk.beginSnapshot() + ", after the head snapshot " + head.getAsLong());
        }
        long start;
        int rows;
        try {
            start = InlineArrow.rowIdStart(key, value);
            rows = InlineArrow.rowCount(key, value);
        }
        catch (CorruptionException e) {
            findings.problem(INLINE_CHUNK, where, e.getMessage());
            return;
        }
        if (rows <= 0) {
            findings.problem(INLINE_CHUNK, where, "its header says " + rows + " rows; a chunk holds at least one");
            return;
        }
        unlocatedChunks.put(chunk, new long[] {start + rows - 1, start});
        catalog.rowIdEnd(chunk.tableId(), start + rows);
        Schema schema = schemaOf(chunk.tableId(), chunk.schemaVersion(), where);
        if (schema == null) {
            return;
        }
        try (VectorSchemaRoot root = InlineArrow.decodeChunk(key, value, schema, allocator)) {
            findings.checked(INLINED_ROWS, root.getRowCount());
        }
        catch (CorruptionException e) {
            findings.problem(INLINE_CHUNK, where, e.getMessage());
        }
    }

    private void locator(byte[] key, byte[] value)
    {
        ChunkId chunk = InlineKeys.chunkOfLocator(key);
        long rowIdEnd = InlineKeys.component(key, 1);
        String where = "inline locator of " + chunkName(chunk);
        long[] expected = unlocatedChunks.get(chunk);
        if (expected == null) {
            findings.problem(INLINE_LOCATOR, where, "names no chunk, or a second locator of one");
            return;
        }
        if (value.length != 8) {
            findings.problem(INLINE_LOCATOR, where, "value has " + value.length + " bytes, not 8");
            return;
        }
        long start = InlineKeys.longOf(value);
        if (rowIdEnd != expected[0] || start != expected[1]) {
            findings.problem(INLINE_LOCATOR, where, "covers row ids " + start + ".." + rowIdEnd + " but the chunk holds " + expected[1] + ".." + expected[0]);
        }
        unlocatedChunks.remove(chunk);
    }

    private void tombstone(byte[] key, byte[] value, long tableId)
    {
        long rowId = InlineKeys.component(key, 1);
        long end = InlineKeys.component(key, 2);
        String where = "inline tombstone of table " + tableId + " row " + rowId + " at snapshot " + end;
        if (value.length != 8 || InlineKeys.longOf(value) != end) {
            findings.problem(INLINE_RECORD, where, "value is not the end snapshot " + end + " of its key");
        }
        if (head.isPresent() && end > head.getAsLong()) {
            findings.problem(SNAPSHOT_RANGE, where, "ends at snapshot " + end + ", after the head snapshot " + head.getAsLong());
        }
    }

    private void fileDelete(byte[] key, byte[] value, long tableId)
    {
        long dataFileId = InlineKeys.component(key, 1);
        String where = "inline file delete of table " + tableId + " data file " + dataFileId + " position " + InlineKeys.component(key, 2);
        if (value.length != 8) {
            findings.problem(INLINE_RECORD, where, "value has " + value.length + " bytes, not 8 (its begin snapshot)");
        }
        else if (head.isPresent() && InlineKeys.longOf(value) > head.getAsLong()) {
            findings.problem(SNAPSHOT_RANGE, where, "begins at snapshot " + InlineKeys.longOf(value) + ", after the head snapshot " + head.getAsLong());
        }
        Long fileTable = catalog.dataFileTable(dataFileId).orElse(null);
        if (fileTable == null || fileTable != tableId) {
            findings.problem(io.moraine.core.verify.VerifyProblem.Check.DANGLING_REFERENCE, where,
                    "names data file " + dataFileId + ", which has no row in table " + tableId);
        }
    }

    private static String kindName(byte kind)
    {
        return switch (kind) {
            case InlineKeys.SCHEMA -> "schema";
            case InlineKeys.INSERT -> "insert chunk";
            case InlineKeys.ROW_TOMBSTONE -> "row tombstone";
            case InlineKeys.FILE_DELETE -> "file delete";
            case InlineKeys.FILE_DELETE_TABLE -> "file delete table marker";
            case InlineKeys.SCHEMA_DROPPED -> "schema dropped marker";
            case InlineKeys.CHUNK_LOCATOR -> "chunk locator";
            default -> "kind " + kind;
        };
    }

    private static String describe(Map<String, Long> counts)
    {
        return counts.entrySet().stream().map(entry -> entry.getValue() + " " + entry.getKey()).collect(java.util.stream.Collectors.joining(", "));
    }

    private static String chunkName(ChunkId chunk)
    {
        return "inline chunk (table " + chunk.tableId() + ", schema version " + chunk.schemaVersion() + ", begin snapshot "
                + chunk.beginSnapshot() + ", seq " + chunk.chunkSeq() + ")";
    }
}
