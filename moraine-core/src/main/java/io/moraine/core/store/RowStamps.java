package io.moraine.core.store;

import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Row stamps: for each catalog kind, a random value that every batch changing a row of that kind replaces. Two reads
 * that find the same stamp for a kind see the same rows of it, whichever process wrote them, so a reader may keep the
 * rows it read and serve them again while the stamp holds ({@link CommittedRowsCache}).
 */
public final class RowStamps
{
    private static final SecureRandom RANDOM = new SecureRandom();

    private RowStamps() {}

    /** The kinds whose rows (current or history) {@code writes} puts or deletes. */
    public static Set<TableKind> changedKinds(Map<ByteBuffer, byte[]> writes)
    {
        Set<TableKind> kinds = EnumSet.noneOf(TableKind.class);
        for (ByteBuffer key : writes.keySet()) {
            kindOf(key).ifPresent(kinds::add);
        }
        if (writes.containsKey(ByteBuffer.wrap(SystemKeys.STORE_FACTS))) {
            kinds.add(TableKind.METADATA); // the facts are served as ducklake_metadata's first rows
        }
        return kinds;
    }

    /** The kind of a row key (current or history), or empty for any other key. */
    static Optional<TableKind> kindOf(ByteBuffer key)
    {
        if (key.remaining() < 2) {
            return Optional.empty();
        }
        byte subspace = key.get(key.position());
        if (subspace != Subspace.CURRENT.tag() && subspace != Subspace.HISTORY.tag()) {
            return Optional.empty();
        }
        return TableKind.fromTag(key.get(key.position() + 1));
    }

    /** Adds a new stamp to {@code writes} for every kind in {@code kinds}. */
    public static void stamp(Map<ByteBuffer, byte[]> writes, Set<TableKind> kinds)
    {
        for (TableKind kind : kinds) {
            byte[] stamp = new byte[16];
            RANDOM.nextBytes(stamp);
            writes.put(ByteBuffer.wrap(SystemKeys.rowStamp(kind)), stamp);
        }
    }
}
