package io.moraine.spark;

import io.moraine.core.changes.ChangeKind;
import io.moraine.core.changes.ChangeType;
import io.moraine.core.changes.PairedChanges;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;

/**
 * Reads one change group part by part and gives each row its {@code _change_type} by the core's {@link PairedChanges}
 * (DuckLake's {@code table_changes} rule). When the group may pair, the snapshots and row ids of all its rows are
 * counted first, by a pass that reads no table column, so that the rows can then be streamed. The raw readers' batches
 * are the table's columns, then {@link ChangelogColumns#FIELDS}; the output drops {@code _row_version}.
 */
final class PairedChangeReader
        implements PartitionReader<ColumnarBatch>
{
    /** {@code _change_type}, {@code _commit_version}, {@code _commit_timestamp}, {@code _row_id}. */
    static final int OUTPUT_CHANGE_FIELDS = 4;
    private static final int CHANGE_TYPE = 0;
    private static final int COMMIT_VERSION = 1;
    private static final int ROW_ID = 3;
    private static final Map<ChangeType, byte[]> TYPE_NAMES = new EnumMap<>(ChangeType.class);

    static {
        for (ChangeType type : ChangeType.values()) {
            TYPE_NAMES.put(type, type.sqlName().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Opens a part's raw reader, with the table's columns or with the change columns alone. */
    @FunctionalInterface
    interface PartReaders
    {
        PartitionReader<ColumnarBatch> open(InputPartition part, boolean withTableColumns);
    }

    private final ChangeGroupPartition group;
    private final int tableColumns;
    private final PartReaders readers;
    private final PairedChanges changes;
    private boolean counted;
    private int nextPart;
    private ChangeKind kind;
    private PartitionReader<ColumnarBatch> current;
    private OnHeapColumnVector changeTypes;
    private ColumnarBatch batch;

    PairedChangeReader(String table, ChangeGroupPartition group, int tableColumns, PartReaders readers)
    {
        this.group = group;
        this.tableColumns = tableColumns;
        this.readers = readers;
        this.changes = PairedChanges.of(group.firstSnapshot(), group.lastSnapshot(), group.pairs(), "readChangeFeed of " + table);
    }

    @Override
    public boolean next()
            throws IOException
    {
        if (!counted) {
            counted = true;
            if (changes.pairs()) {
                countKeys();
            }
        }
        while (true) {
            if (current == null) {
                if (nextPart == group.parts().size()) {
                    return false;
                }
                kind = group.kinds().get(nextPart);
                current = readers.open(group.parts().get(nextPart++), true);
            }
            if (!current.next()) {
                closeCurrent();
                continue;
            }
            ColumnarBatch read = current.get();
            if (read.numRows() > 0) {
                batch = changes.pairs() ? paired(read) : unpaired(read);
                return true;
            }
        }
    }

    /** The snapshot and row id of every row of the group, counted by kind. */
    private void countKeys()
            throws IOException
    {
        for (int part = 0; part < group.parts().size(); part++) {
            InputPartition input = group.parts().get(part);
            // An inlined part is small and has all its columns anyway.
            int offset = input instanceof InlinedRowsPartition ? tableColumns : 0;
            ChangeKind partKind = group.kinds().get(part);
            try (PartitionReader<ColumnarBatch> keys = readers.open(input, input instanceof InlinedRowsPartition)) {
                while (keys.next()) {
                    ColumnarBatch read = keys.get();
                    ColumnVector snapshots = read.column(offset + COMMIT_VERSION);
                    ColumnVector rowIds = read.column(offset + ROW_ID);
                    changes.count(partKind, read.numRows(), snapshots::getLong, rowIds::getLong);
                }
            }
        }
    }

    /** A group that cannot pair: its rows are inserts and deletes as read. */
    private ColumnarBatch unpaired(ColumnarBatch read)
    {
        changes.check(read.numRows(), read.column(tableColumns + COMMIT_VERSION)::getLong);
        ColumnVector[] vectors = new ColumnVector[tableColumns + OUTPUT_CHANGE_FIELDS];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = read.column(i);
        }
        return new ColumnarBatch(vectors, read.numRows());
    }

    /** Each row as many times, and with the change types, as {@link PairedChanges} names it. */
    private ColumnarBatch paired(ColumnarBatch read)
    {
        int count = changes.name(kind, read.numRows(), read.column(tableColumns + COMMIT_VERSION)::getLong, read.column(tableColumns + ROW_ID)::getLong);
        if (changeTypes == null) {
            changeTypes = new OnHeapColumnVector(Math.max(count, 4096), DataTypes.StringType);
        }
        changeTypes.reset();
        changeTypes.reserve(count);
        ChangeType[] types = changes.types();
        for (int i = 0; i < count; i++) {
            changeTypes.putByteArray(i, TYPE_NAMES.get(types[i]));
        }
        // The batch is used before the next one is named, so the reused positions need no copy.
        int[] positions = changes.rows();
        ColumnVector[] vectors = new ColumnVector[tableColumns + OUTPUT_CHANGE_FIELDS];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = i == tableColumns + CHANGE_TYPE ? changeTypes : new FilteredColumnVector(read.column(i), positions, count);
        }
        return new ColumnarBatch(vectors, count);
    }

    @Override
    public ColumnarBatch get()
    {
        return batch;
    }

    private void closeCurrent()
            throws IOException
    {
        try (PartitionReader<ColumnarBatch> closing = current) {
            current = null;
        }
    }

    @Override
    public void close()
            throws IOException
    {
        try {
            if (current != null) {
                closeCurrent();
            }
        }
        finally {
            if (changeTypes != null) {
                changeTypes.close();
            }
        }
    }
}
