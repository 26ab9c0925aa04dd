package io.moraine.core.verify;

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
 * The primary-key index (every data and delete file row has its entry, naming its table, and no other entry exists)
 * and, in a store of format 2 or later, the snapshot-time index (one entry per snapshot with a time, no other).
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
}
