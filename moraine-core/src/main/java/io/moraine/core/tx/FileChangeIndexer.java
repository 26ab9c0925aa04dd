package io.moraine.core.tx;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.keyspace.FileChangeKeys;
import io.moraine.core.keyspace.KeyBytes;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.RowValueCodec;
import io.moraine.core.keyspace.Subspace;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Keeps the file-change index ({@link FileChangeKeys}) in step with the data and delete file rows one commit inserts,
 * ends, updates or deletes: each file's rows as the store held them before the commit are noted when the commit first
 * touches the file, and once every operation is translated, their entries are removed and those of the rows the commit
 * leaves are written.
 */
final class FileChangeIndexer
{
    private record FileKey(TableKind kind, List<Object> keyCells) {}

    private final CommitTranslator commit;
    private final Map<FileKey, List<Row>> before = new LinkedHashMap<>();

    FileChangeIndexer(CommitTranslator commit)
    {
        this.commit = commit;
    }

    static boolean isIndexed(TableKind kind)
    {
        return kind == TableKind.DATA_FILE || kind == TableKind.DELETE_FILE;
    }

    /**
     * Before an operation on a file row: remembers the file's stored rows the first time (for an insert, the reads the
     * insert's own existence check makes, so the committer's read cache answers one of the two).
     */
    void touching(TableKind kind, List<Object> keyCells)
    {
        FileKey file = new FileKey(kind, keyCellsOrNull(keyCells));
        if (!before.containsKey(file)) {
            before.put(file, rows(file));
        }
    }

    /** The index writes for every touched file; {@code writtenAt} is the snapshot the commit lands at. */
    void finish(long writtenAt)
    {
        Map<FileKey, List<Row>> after = new LinkedHashMap<>();
        before.keySet().forEach(file -> after.put(file, rows(file)));
        Map<FileKey, OptionalLong> recorded = new LinkedHashMap<>();
        before.forEach((file, rows) -> {
            for (Row row : rows) {
                if (!isSelectable(row)) {
                    continue;
                }
                OptionalLong contentEnd = recordedContentEnd(row);
                recorded.put(file, contentEnd);
                FileChangeKeys.entries(row, contentEnd.orElseGet(() -> FileChangeKeys.contentEnd(row, Long.MIN_VALUE, false)))
                        .keySet().forEach(key -> commit.put(KeyBytes.toArray(key), null));
            }
        });
        after.forEach((file, rows) -> {
            for (Row row : rows) {
                if (!isSelectable(row)) {
                    continue;
                }
                // A spanning delete file keeps the end recorded when it was written, not this later commit's snapshot.
                OptionalLong kept = row.getLong("partial_max") == null ? recorded.getOrDefault(file, OptionalLong.empty()) : OptionalLong.empty();
                long contentEnd = kept.isPresent()
                        ? kept.getAsLong()
                        : FileChangeKeys.contentEnd(row, writtenAt, needsDataFile(row, writtenAt) && dataFileIsPartial(row));
                FileChangeKeys.entries(row, contentEnd).forEach((key, value) -> commit.put(KeyBytes.toArray(key), value));
            }
        });
    }

    /** Whether a change feed can select the row at all (it has a table, a data file and a begin snapshot). */
    private static boolean isSelectable(Row row)
    {
        return row.getLong("table_id") != null && row.getLong("begin_snapshot") != null && row.getLong("data_file_id") != null;
    }

    private static boolean needsDataFile(Row row, long writtenAt)
    {
        return row.kind() == TableKind.DELETE_FILE && row.getLong("partial_max") == null && row.getLong("begin_snapshot") < writtenAt;
    }

    private boolean dataFileIsPartial(Row deleteFile)
    {
        FileKey dataFile = new FileKey(TableKind.DATA_FILE, keyCellsOrNull(java.util.Arrays.asList(deleteFile.get("table_id"), deleteFile.get("data_file_id"))));
        return rows(dataFile).stream().anyMatch(row -> row.getLong("partial_max") != null);
    }

    /**
     * The content end a stored row's begin entry records when the row alone does not say it: a delete file without
     * partial_max may span to the commit that wrote it. (Read as the store held it; other rows need no read.)
     */
    private OptionalLong recordedContentEnd(Row row)
    {
        if (row.kind() != TableKind.DELETE_FILE || row.getLong("partial_max") != null) {
            return OptionalLong.empty();
        }
        return FileChangeKeys.recordedContentEnd(commit.readStored(FileChangeKeys.beginEvent(row)));
    }

    /** The file's rows, current and history, as this commit sees them so far. */
    private List<Row> rows(FileKey file)
    {
        List<Row> rows = new ArrayList<>(1);
        for (Subspace subspace : List.of(Subspace.CURRENT, Subspace.HISTORY)) {
            byte[] key = RowKeys.key(subspace, file.kind(), file.keyCells().toArray());
            byte[] value = commit.read(key);
            if (value != null) {
                rows.add(RowValueCodec.decode(file.kind(), key, value));
            }
        }
        return rows;
    }

    private static List<Object> keyCellsOrNull(List<Object> keyCells)
    {
        List<Object> cells = new ArrayList<>(keyCells.size());
        keyCells.forEach(cell -> cells.add(cell instanceof Integer integer ? integer.longValue() : cell));
        return java.util.Collections.unmodifiableList(cells);
    }

}
