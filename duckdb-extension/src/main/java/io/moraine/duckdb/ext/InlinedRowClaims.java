package io.moraine.duckdb.ext;

import io.moraine.core.error.CommitConflictException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which open transaction of one attach has staged the deletion or the end of which inlined row: the write-write
 * conflict check DuckDB's MVCC makes for its own tables ("Conflict on tuple deletion"). A transaction that deletes a
 * row version another open transaction deleted, or ends a row another one ended, fails at once instead of at commit.
 * As in DuckDB, a deletion and an end of the same row do not collide here (DuckLake's own commit check orders those).
 * A transaction's claims go when it commits or rolls back. Each row costs one concurrent-map insert; no lock is held.
 */
final class InlinedRowClaims
{
    /** What one transaction claimed, to release when it ends. */
    static final class Held
    {
        private final List<Map<Long, AttachTransaction>> tables = new ArrayList<>();
        private final List<long[]> keys = new ArrayList<>();
    }

    // Per inlined data table: deleted row versions (DuckDB row ids: row_id and begin_snapshot), ended row_ids.
    private final Map<String, Map<Long, AttachTransaction>> deletions = new ConcurrentHashMap<>();
    private final Map<String, Map<Long, AttachTransaction>> ends = new ConcurrentHashMap<>();

    /** DELETE of the versions {@code versionRowIds} of {@code table} by {@code owner}: all claimed, or none and a conflict. */
    void claimDeletions(AttachTransaction owner, Held held, String table, long[] versionRowIds)
    {
        claim(owner, held, deletions.computeIfAbsent(table, t -> new ConcurrentHashMap<>()), versionRowIds, key -> "Conflict on deletion of "
                + "inlined row " + InlinedDataTable.rowIdOf(key) + " (begun at snapshot " + InlinedDataTable.beginSnapshotOf(key) + ") of " + table
                + ": another open transaction on this attach deleted it (a flush of inlined data, or snapshot expiry) and has not committed or "
                + "rolled back. Roll back this transaction and retry it once the other one has ended");
    }

    /** UPDATE ... SET end_snapshot of the rows {@code rowIds} of {@code table} by {@code owner}: all claimed, or none and a conflict. */
    void claimEnds(AttachTransaction owner, Held held, String table, long[] rowIds)
    {
        claim(owner, held, ends.computeIfAbsent(table, t -> new ConcurrentHashMap<>()), rowIds, key -> "Conflict on update of inlined row "
                + key + " of " + table + ": another open transaction on this attach deleted or updated the row (set its end_snapshot) and has "
                + "not committed or rolled back. Roll back this transaction and retry it once the other one has ended");
    }

    private static void claim(AttachTransaction owner, Held held, Map<Long, AttachTransaction> claims, long[] keys,
            java.util.function.LongFunction<String> conflict)
    {
        long[] taken = new long[keys.length];
        int count = 0;
        for (long key : keys) {
            AttachTransaction holder = claims.putIfAbsent(key, owner);
            if (holder == null) {
                taken[count++] = key;
            }
            else if (holder != owner) {
                for (int i = 0; i < count; i++) {
                    claims.remove(taken[i], owner);
                }
                throw new CommitConflictException(conflict.apply(key));
            }
        }
        if (count > 0) {
            held.tables.add(claims);
            held.keys.add(count == taken.length ? taken : java.util.Arrays.copyOf(taken, count));
        }
    }

    /** Releases every claim of {@code owner}: its transaction committed or rolled back. */
    static void release(AttachTransaction owner, Held held)
    {
        for (int i = 0; i < held.tables.size(); i++) {
            Map<Long, AttachTransaction> claims = held.tables.get(i);
            for (long key : held.keys.get(i)) {
                claims.remove(key, owner);
            }
        }
        held.tables.clear();
        held.keys.clear();
    }
}
