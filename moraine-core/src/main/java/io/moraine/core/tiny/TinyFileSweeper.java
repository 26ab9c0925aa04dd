package io.moraine.core.tiny;

import com.google.common.collect.Iterators;
import com.google.common.collect.PeekingIterator;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.TinyFileKeys;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Deletes tiny-file copies whose file has no row at all (current or history) — left by a writer that copied a file
 * and lost its row without this binary's lifecycle rule, or by a crash between tools — and copies that are not whole.
 * The copy range is merged with each table's file rows in file-id order, so the sweep reads every copy and file row
 * once and looks nothing up per copy. Copies of files that still have a row, visible or ended, are kept.
 */
public final class TinyFileSweeper
{
    private static final int BATCH = 1024;

    public record Result(long copies, long deleted, long corrupt) {}

    private TinyFileSweeper() {}

    /** Sweeps the store of {@code catalog}, which must be open read-write. */
    public static Result sweep(MoraineCatalog catalog)
    {
        long copies = 0;
        long deleted = 0;
        long corrupt = 0;
        Map<ByteBuffer, byte[]> deletes = new LinkedHashMap<>();
        try (CatalogSnapshot snapshot = catalog.latest();
                KeyValueCursor cursor = snapshot.reader().scan(Subspace.TINY_FILES.start(), Subspace.TINY_FILES.end(), 64)) {
            long groupTable = Long.MIN_VALUE;
            TableKind groupKind = null;
            RowCursor rows = null;
            PeekingIterator<Row> files = null;
            try {
                while (cursor.hasNext()) {
                    KeyValue copy = cursor.next();
                    copies++;
                    TinyFileKeys.CopyId id;
                    try {
                        id = TinyFileKeys.idOf(copy.key());
                        if (!TinyFileKeys.isWhole(copy.key(), copy.value())) {
                            throw new CorruptionException("not whole");
                        }
                    }
                    catch (CorruptionException e) {
                        corrupt++;
                        deletes.put(ByteBuffer.wrap(copy.key()), null);
                        continue;
                    }
                    if (id.tableId() != groupTable || id.kind() != groupKind) {
                        if (rows != null) {
                            rows.close();
                        }
                        groupTable = id.tableId();
                        groupKind = id.kind();
                        rows = snapshot.everyVersion(groupKind, groupTable);
                        files = Iterators.peekingIterator(rows);
                    }
                    String idColumn = groupKind == TableKind.DATA_FILE ? "data_file_id" : "delete_file_id";
                    while (files.hasNext() && files.peek().getLong(idColumn) < id.fileId()) {
                        files.next();
                    }
                    if (!files.hasNext() || files.peek().getLong(idColumn) != id.fileId()) {
                        deleted++;
                        deletes.put(ByteBuffer.wrap(copy.key()), null);
                    }
                    if (deletes.size() >= BATCH) {
                        write(catalog, deletes);
                    }
                }
            }
            finally {
                if (rows != null) {
                    rows.close();
                }
            }
        }
        write(catalog, deletes);
        return new Result(copies, deleted, corrupt);
    }

    private static void write(MoraineCatalog catalog, Map<ByteBuffer, byte[]> deletes)
    {
        if (!deletes.isEmpty()) {
            Map<ByteBuffer, byte[]> batch = new LinkedHashMap<>(deletes);
            catalog.writeBesideCommits(reader -> batch);
            deletes.clear();
        }
    }
}
