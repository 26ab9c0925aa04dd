package io.moraine.spark;

import io.moraine.core.changes.ChangeKey;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.changes.ChangePairing;
import io.moraine.core.changes.ChangeType;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one change group part by part and gives each row its {@code _change_type} by the core's {@link ChangePairing}
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

    private final String table;
    private final ChangeGroupPartition group;
    private final int tableColumns;
    private final PartReaders readers;
    private final Map<ChangeKind, Map<ChangeKey, Long>> keyCounts = new EnumMap<>(ChangeKind.class);
    private boolean counted;
    private int nextPart;
    private ChangeKind kind;
    private PartitionReader<ColumnarBatch> current;
    private OnHeapColumnVector changeTypes;
    private int[] positions = new int[0];
    private ColumnarBatch batch;

    PairedChangeReader(String table, ChangeGroupPartition group, int tableColumns, PartReaders readers)
    {
        this.table = table;
        this.group = group;
        this.tableColumns = tableColumns;
        this.readers = readers;
        for (ChangeKind each : ChangeKind.values()) {
            keyCounts.put(each, new HashMap<>());
        }
    }

    @Override
    public boolean next()
            throws IOException
    {
        if (!counted) {
            counted = true;
            if (group.pairs()) {
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
                batch = group.pairs() ? paired(read) : unpaired(read);
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
            Map<ChangeKey, Long> counts = keyCounts.get(group.kinds().get(part));
            try (PartitionReader<ColumnarBatch> keys = readers.open(input, input instanceof InlinedRowsPartition)) {
                while (keys.next()) {
                    ColumnarBatch read = keys.get();
                    ColumnVector snapshots = read.column(offset + COMMIT_VERSION);
                    ColumnVector rowIds = read.column(offset + ROW_ID);
                    for (int row = 0; row < read.numRows(); row++) {
                        counts.merge(new ChangeKey(checkedSnapshot(snapshots.getLong(row)), rowIds.getLong(row)), 1L, Long::sum);
                    }
                }
            }
        }
    }

    /** A group that cannot pair: its rows are inserts and deletes as read. */
    private ColumnarBatch unpaired(ColumnarBatch read)
    {
        ColumnVector[] vectors = new ColumnVector[tableColumns + OUTPUT_CHANGE_FIELDS];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = read.column(i);
        }
        return new ColumnarBatch(vectors, read.numRows());
    }

    /** Each row as many times, and with the change types, as {@link ChangePairing} makes of it. */
    private ColumnarBatch paired(ColumnarBatch read)
    {
        Map<ChangeKey, Long> otherSide = keyCounts.get(kind == ChangeKind.INSERTION ? ChangeKind.DELETION : ChangeKind.INSERTION);
        ColumnVector snapshots = read.column(tableColumns + COMMIT_VERSION);
        ColumnVector rowIds = read.column(tableColumns + ROW_ID);
        if (changeTypes == null) {
            changeTypes = new OnHeapColumnVector(Math.max(read.numRows(), 4096), DataTypes.StringType);
        }
        changeTypes.reset();
        int count = 0;
        for (int row = 0; row < read.numRows(); row++) {
            ChangeKey key = new ChangeKey(checkedSnapshot(snapshots.getLong(row)), rowIds.getLong(row));
            for (ChangeType type : ChangePairing.changeTypes(kind, key, otherSide)) {
                if (count == positions.length) {
                    positions = Arrays.copyOf(positions, Math.max(16, positions.length * 2));
                }
                positions[count] = row;
                changeTypes.reserve(count + 1);
                changeTypes.putByteArray(count, TYPE_NAMES.get(type));
                count++;
            }
        }
        ColumnVector[] vectors = new ColumnVector[tableColumns + OUTPUT_CHANGE_FIELDS];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = i == tableColumns + CHANGE_TYPE ? changeTypes : new FilteredColumnVector(read.column(i), positions, count);
        }
        return new ColumnarBatch(vectors, count);
    }

    /** A row outside its group's snapshots could pair with a row of another group: the grouping was wrong for it. */
    private long checkedSnapshot(long snapshot)
    {
        if (!group.contains(snapshot)) {
            throw new IllegalStateException("readChangeFeed of " + table + ": a change of snapshot " + snapshot + " was read by the partition planned for snapshots "
                    + group.firstSnapshot() + " to " + group.lastSnapshot() + ", so its pairing into updates could be wrong; this is a bug in moraine's change-feed grouping");
        }
        return snapshot;
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
