package io.moraine.core.scan;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.keyspace.TinyFileKeys;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog's copies of a table's tiny files as planning attaches them: data-file copies streamed in file-id order
 * beside the data files (one range scan, no read per file), delete-file copies read up front with the delete files.
 * A copy is used only when its recorded size equals the row's {@code file_size_bytes} and its value is whole; any
 * other copy is ignored, and the reader opens the file.
 */
final class TinyFileCopies
        implements AutoCloseable
{
    private final KeyValueCursor dataCopies;
    private KeyValue pending;

    private TinyFileCopies(KeyValueCursor dataCopies)
    {
        this.dataCopies = dataCopies;
    }

    static TinyFileCopies open(CatalogSnapshot snapshot, long tableId)
    {
        return new TinyFileCopies(snapshot.tinyFileCopies(tableId, TableKind.DATA_FILE));
    }

    /** The copy of data file {@code fileId} if one matches {@code sizeBytes}; ids must be asked for in ascending order. */
    Optional<FileCopy> dataFile(long fileId, long sizeBytes)
    {
        while (pending != null || dataCopies.hasNext()) {
            KeyValue entry = pending != null ? pending : dataCopies.next();
            pending = null;
            long id = TinyFileKeys.idOf(entry.key()).fileId();
            if (id > fileId) {
                pending = entry;
                return Optional.empty();
            }
            if (id == fileId) {
                return usable(entry, sizeBytes);
            }
        }
        return Optional.empty();
    }

    /** Every delete-file copy of the table, by delete file id, unchecked (see {@link #usable(KeyValue, long)}). */
    static Map<Long, KeyValue> deleteFiles(CatalogSnapshot snapshot, long tableId)
    {
        Map<Long, KeyValue> copies = new HashMap<>();
        try (KeyValueCursor cursor = snapshot.tinyFileCopies(tableId, TableKind.DELETE_FILE)) {
            while (cursor.hasNext()) {
                KeyValue entry = cursor.next();
                copies.put(TinyFileKeys.idOf(entry.key()).fileId(), entry);
            }
        }
        return copies;
    }

    static Optional<FileCopy> usable(KeyValue entry, long sizeBytes)
    {
        try {
            if (!TinyFileKeys.isWhole(entry.key(), entry.value()) || TinyFileKeys.recordedSize(entry.key(), entry.value()) != sizeBytes) {
                return Optional.empty();
            }
            return Optional.of(FileCopy.wrap(TinyFileKeys.fileBytes(entry.key(), entry.value())));
        }
        catch (CorruptionException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close()
    {
        dataCopies.close();
    }
}
