package io.moraine.core.verify;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.keyspace.FileChangeKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.moraine.core.verify.CatalogRowChecks.hex;
import static io.moraine.core.verify.VerifyProblem.Check.INDEX;

/**
 * The primary-key index (every data and delete file row has its entry, naming its table, and no other entry exists),
 * in a store of format 2 or later the snapshot-time index (one entry per snapshot with a time, no other), and in one
 * of format 3 or later the file-change index (the entries each data and delete file row gives, no other).
 */
final class IndexChecks
{
    static final String INDEX_ENTRIES = "index entries";
    private static final int PAGE = 1024;

    private final KeyValueReader reader;
    private final Findings findings;

    IndexChecks(KeyValueReader reader, Findings findings)
    {
        this.reader = reader;
        this.findings = findings;
    }

    void run(Map<ByteBuffer, CatalogRowChecks.IndexEntry> expected, boolean snapshotTimeIndexed)
    {
        findings.expect(INDEX_ENTRIES);
        Map<ByteBuffer, CatalogRowChecks.IndexEntry> missing = new HashMap<>(expected);
        List<Subspace> subspaces = snapshotTimeIndexed ? List.of(Subspace.PRIMARY_KEY, Subspace.SNAPSHOT_TIME) : List.of(Subspace.PRIMARY_KEY);
        for (Subspace subspace : subspaces) {
            try (KeyValueCursor cursor = reader.scan(subspace.start(), subspace.end(), PAGE)) {
                while (cursor.hasNext()) {
                    KeyValue entry = cursor.next();
                    findings.checked(INDEX_ENTRIES);
                    CatalogRowChecks.IndexEntry wanted = missing.remove(ByteBuffer.wrap(entry.key()));
                    String where = subspace.name().toLowerCase(java.util.Locale.ROOT) + " index entry " + hex(entry.key());
                    if (wanted == null) {
                        findings.problem(INDEX, where, "no row has this entry");
                    }
                    else if (!Arrays.equals(wanted.value(), entry.value())) {
                        findings.problem(INDEX, where, "value " + hex(entry.value()) + " differs from " + hex(wanted.value()) + ", which " + wanted.row() + " gives");
                    }
                }
            }
        }
        for (Map.Entry<ByteBuffer, CatalogRowChecks.IndexEntry> entry : missing.entrySet()) {
            byte[] key = new byte[entry.getKey().remaining()];
            entry.getKey().duplicate().get(key);
            if (key[0] == Subspace.SNAPSHOT_TIME.tag() && !snapshotTimeIndexed) {
                continue;
            }
            findings.problem(INDEX, entry.getValue().row(), "has no " + (key[0] == Subspace.PRIMARY_KEY.tag() ? "primary-key" : "snapshot-time")
                    + " index entry (key " + hex(key) + ")");
        }
    }

    /**
     * The file-change index of a store of format 3 or later: exactly the entries {@link FileChangeKeys#entries} gives
     * each data and delete file row. A delete file without partial_max may span to the commit that wrote it, which
     * only its begin entry records, so its content end is read from there.
     */
    void runFileChanges(List<CatalogRowChecks.FileRow> files)
    {
        Map<ByteBuffer, byte[]> stored = new HashMap<>();
        try (KeyValueCursor cursor = reader.scan(Subspace.FILE_CHANGES.start(), Subspace.FILE_CHANGES.end(), PAGE)) {
            while (cursor.hasNext()) {
                KeyValue entry = cursor.next();
                findings.checked(INDEX_ENTRIES);
                stored.put(ByteBuffer.wrap(entry.key()), entry.value());
            }
        }
        for (CatalogRowChecks.FileRow file : files) {
            Row row = file.row();
            if (row.getLong("table_id") == null || row.getLong("begin_snapshot") == null || row.getLong("data_file_id") == null) {
                continue;
            }
            long contentEnd = row.getLong("partial_max") != null
                    ? Math.max(row.getLong("begin_snapshot"), row.getLong("partial_max"))
                    : row.kind() == TableKind.DELETE_FILE
                            ? FileChangeKeys.recordedContentEnd(stored.get(ByteBuffer.wrap(FileChangeKeys.beginEvent(row)))).orElse(row.getLong("begin_snapshot"))
                            : row.getLong("begin_snapshot");
            for (Map.Entry<ByteBuffer, byte[]> wanted : FileChangeKeys.entries(row, contentEnd).entrySet()) {
                byte[] value = stored.remove(wanted.getKey());
                if (value == null) {
                    findings.problem(INDEX, file.where(), "has no file-change index entry " + hex(bytes(wanted.getKey())));
                }
                else if (!Arrays.equals(value, wanted.getValue())) {
                    findings.problem(INDEX, file.where(), "file-change index entry " + hex(bytes(wanted.getKey())) + " has value " + hex(value)
                            + ", not " + hex(wanted.getValue()));
                }
            }
        }
        for (ByteBuffer key : stored.keySet()) {
            findings.problem(INDEX, "file_changes index entry " + hex(bytes(key)), "no data or delete file row has this entry");
        }
    }

    private static byte[] bytes(ByteBuffer buffer)
    {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
