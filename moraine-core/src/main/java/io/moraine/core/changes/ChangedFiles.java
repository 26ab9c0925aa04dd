package io.moraine.core.changes;

import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.row.TableKind;
import io.moraine.core.keyspace.FileChangeKeys;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.RowValueCodec;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The data files of a table with changes in {@code [from, to]}, found through the file-change index
 * ({@link FileChangeKeys}): one scan of the begin and end events in the range, one of the spans that end at or after
 * {@code from}, then key lookups of each file's rows and its delete files. No other file of the table is read.
 */
final class ChangedFiles
{
    private final KeyValueReader reader;
    private final long tableId;

    ChangedFiles(KeyValueReader reader, long tableId)
    {
        this.reader = reader;
        this.tableId = tableId;
    }

    /**
     * The ids of the data files that began or ended in the range, that hold rows of it (flush and merge outputs), or
     * whose delete files hold deletions of it.
     */
    SortedSet<Long> dataFileIds(long from, long to)
    {
        SortedSet<Long> ids = new TreeSet<>();
        try (KeyValueCursor events = reader.scan(FileChangeKeys.atOrAfter(tableId, FileChangeKeys.EVENT, from),
                FileChangeKeys.after(tableId, FileChangeKeys.EVENT, to), RowCursor.DEFAULT_PAGE_SIZE)) {
            events.forEachRemaining(entry -> ids.add(FileChangeKeys.dataFileIdOf(entry.key(), entry.value())));
        }
        // A span that ends at or after the range's start holds changes of the range if it begins by its end.
        try (KeyValueCursor spans = reader.scan(FileChangeKeys.atOrAfter(tableId, FileChangeKeys.SPAN, from),
                FileChangeKeys.familyEnd(tableId, FileChangeKeys.SPAN), RowCursor.DEFAULT_PAGE_SIZE)) {
            while (spans.hasNext()) {
                KeyValue entry = spans.next();
                if (FileChangeKeys.spanBegin(entry.key()) <= to) {
                    ids.add(FileChangeKeys.dataFileIdOf(entry.key(), entry.value()));
                }
            }
        }
        return ids;
    }

    /** The data file's row, current or history; empty if it is gone (physically deleted). */
    Optional<Row> dataFile(long dataFileId)
    {
        return row(TableKind.DATA_FILE, dataFileId);
    }

    /** Every delete file of the data file, current or not, that began by {@code to}, oldest first. */
    List<Row> deleteFiles(long dataFileId, long to)
    {
        List<Long> deleteFileIds = new ArrayList<>();
        byte[] start = FileChangeKeys.deleteFileOf(tableId, dataFileId, Long.MIN_VALUE);
        byte[] end = dataFileId == Long.MAX_VALUE
                ? FileChangeKeys.familyEnd(tableId, FileChangeKeys.DELETE_FILES)
                : FileChangeKeys.deleteFileOf(tableId, dataFileId + 1, Long.MIN_VALUE);
        try (KeyValueCursor entries = reader.scan(start, end, RowCursor.DEFAULT_PAGE_SIZE)) {
            entries.forEachRemaining(entry -> deleteFileIds.add(FileChangeKeys.deleteFileIdOf(entry.key())));
        }
        List<Row> rows = new ArrayList<>(deleteFileIds.size());
        for (long deleteFileId : deleteFileIds) {
            row(TableKind.DELETE_FILE, deleteFileId).filter(row -> row.getLong("begin_snapshot") <= to).ifPresent(rows::add);
        }
        rows.sort(Comparator.comparing((Row row) -> row.getLong("begin_snapshot")));
        return rows;
    }

    private Optional<Row> row(TableKind kind, long fileId)
    {
        for (Subspace subspace : List.of(Subspace.CURRENT, Subspace.HISTORY)) {
            byte[] key = RowKeys.key(subspace, kind, tableId, fileId);
            byte[] value = reader.get(key);
            if (value != null) {
                return Optional.of(RowValueCodec.decode(kind, key, value));
            }
        }
        return Optional.empty();
    }
}
