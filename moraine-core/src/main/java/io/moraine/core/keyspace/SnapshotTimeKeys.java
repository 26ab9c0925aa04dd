package io.moraine.core.keyspace;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.CorruptionException;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Keys of the snapshot-time index: {@code [0x05][int64(snapshot_time in microseconds)][int64(snapshot_id)]} with an
 * empty value, one per {@code ducklake_snapshot} row whose snapshot_time is set. Key order is (time, id), so "the
 * newest snapshot at or before t" is the greatest key below a bound and "the first at or after t" the least key above
 * one: each a range scan that stops at its first entry.
 */
public final class SnapshotTimeKeys
{
    public static final byte[] VALUE = new byte[0];

    private static final int KEY_LENGTH = 1 + 8 + 8;

    private SnapshotTimeKeys() {}

    public static byte[] key(long timeMicros, long snapshotId)
    {
        return new KeyWriter().tag(Subspace.SNAPSHOT_TIME.tag()).int64(timeMicros).int64(snapshotId).toBytes();
    }

    /** The index key of a {@code ducklake_snapshot} row; empty when its snapshot_time is NULL (no time selects it). */
    public static Optional<byte[]> of(Row snapshot)
    {
        if (snapshot.kind() != TableKind.SNAPSHOT) {
            throw new IllegalArgumentException("not a ducklake_snapshot row: " + snapshot);
        }
        return snapshot.get("snapshot_time") instanceof Instant time
                ? Optional.of(key(Micros.of(time), snapshot.getLong("snapshot_id")))
                : Optional.empty();
    }

    /** The first key of every snapshot whose time, in whole microseconds, is {@code timeMicros} or later. */
    public static byte[] atOrAfter(long timeMicros)
    {
        return new KeyWriter().tag(Subspace.SNAPSHOT_TIME.tag()).int64(timeMicros).toBytes();
    }

    /** The first key after every snapshot whose time, in whole microseconds, is {@code timeMicros} or earlier. */
    public static byte[] after(long timeMicros)
    {
        return timeMicros == Long.MAX_VALUE ? Subspace.SNAPSHOT_TIME.end() : atOrAfter(timeMicros + 1);
    }

    public static long snapshotId(byte[] key)
    {
        if (key.length != KEY_LENGTH || key[0] != Subspace.SNAPSHOT_TIME.tag()) {
            throw new CorruptionException("corrupt snapshot-time index key " + HexFormat.of().formatHex(key) + ": expected "
                    + KEY_LENGTH + " bytes starting 0x05. Restore the store from a checkpoint or backup.");
        }
        return ByteBuffer.wrap(key, KEY_LENGTH - 8, 8).getLong() ^ Long.MIN_VALUE;
    }
}
