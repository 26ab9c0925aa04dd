package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.scan.ColumnDomain;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.RowIdMembership;
import io.moraine.core.scan.ValueRange;

import java.io.IOException;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Which row ids a data file holds, by the fallback chain of RFC 0023: files the catalog proves dense never get here
 * (planning answers them from {@code row_id_start} and the record count); then the process cache's membership; then
 * the file's {@code .rowsum} sidecar (its set only); then, when {@code derive} is on, the data file's row-id column. A
 * file none of these answers is kept. What the sidecar or the derivation yields is cached for the process; a lookup
 * never publishes.
 */
public final class RowIdLookup
        implements RowIdMembership
{
    private final LakeFileSystem files;
    private final RowSummaryReader reader;
    private final RowSummaryCache cache;
    private final boolean derive;

    public RowIdLookup(LakeFileSystem files, RowSummaryReader reader, RowSummaryCache cache, boolean derive)
    {
        this.files = requireNonNull(files, "files");
        this.reader = requireNonNull(reader, "reader");
        this.cache = requireNonNull(cache, "cache");
        this.derive = derive;
    }

    @Override
    public boolean mayHold(DataFileTask file, ColumnDomain rowIds)
    {
        return membership(file).map(set -> holdsAny(set, rowIds)).orElse(true);
    }

    /** The ids {@code file} holds, from the first source of the chain that knows them. */
    public Optional<RowIdSet> membership(DataFileTask task)
    {
        DataFileIdentity file = identity(task);
        Optional<RowIdSet> cached = cache.membership(file);
        if (cached.isPresent()) {
            return cached;
        }
        Optional<RowIdSet> found = reader.open(file).map(RowSummarySidecar::set);
        if (found.isEmpty() && derive) {
            found = derived(task, file);
        }
        found.ifPresent(set -> cache.putMembership(file, set));
        return found;
    }

    private Optional<RowIdSet> derived(DataFileTask task, DataFileIdentity file)
    {
        try {
            return Optional.of(RowSummaryDerivation.derive(files, task, file).set());
        }
        catch (IOException | RuntimeException e) {
            // deriving is only an optimisation here: the file is kept and its reader sees the error, if any
            return Optional.empty();
        }
    }

    public static DataFileIdentity identity(DataFileTask task)
    {
        return new DataFileIdentity(task.tableId(), task.dataFileId(), task.path(), task.sizeBytes());
    }

    /** Whether {@code set} holds an id of one of {@code rowIds}' ranges, by rank: no id is enumerated. */
    static boolean holdsAny(RowIdSet set, ColumnDomain rowIds)
    {
        for (ValueRange range : rowIds.ranges()) {
            if (range.low().isEmpty() || range.high().isEmpty()) {
                return true;
            }
            long low = (Long) range.low().get();
            long high = (Long) range.high().get();
            if (!range.lowInclusive()) {
                if (low == Long.MAX_VALUE) {
                    continue;
                }
                low++;
            }
            if (!range.highInclusive()) {
                if (high == Long.MIN_VALUE) {
                    continue;
                }
                high--;
            }
            if (low > high || high < 0) {
                continue;
            }
            low = Math.max(low, 0);
            long below = set.rank(low);
            long through = high == Long.MAX_VALUE ? set.cardinality() : set.rank(high + 1);
            if (through > below) {
                return true;
            }
        }
        return false;
    }
}
