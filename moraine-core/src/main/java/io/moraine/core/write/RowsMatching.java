package io.moraine.core.write;

import com.google.common.collect.Iterators;
import com.google.common.collect.PeekingIterator;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.PartitionSpec;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlinedRowsReader;
import io.moraine.core.row.Row;
import io.moraine.core.row.RowsOfDataFile;
import io.moraine.core.scan.ColumnDomain;
import io.moraine.core.scan.FilePartitionValues;
import io.moraine.core.scan.FilePruning;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.scan.ScanFilter;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * The rows of a table an overwrite replaces, decided exactly from the catalog (no data file is read), as the rows to
 * delete at a snapshot:
 * <ul>
 * <li>{@link #filter}: the rows a condition accepts. A data file is deleted whole when its identity partition values or
 * its column statistics prove every row matches, kept when they prove none does; a file that may hold both is refused
 * (as Iceberg's overwrite by filter refuses it), naming the condition and the file. Inlined rows are tested one by one.</li>
 * <li>{@link #partitions}: the rows in the given partitions of the table's current spec (Spark's dynamic partition
 * overwrite): files by their partition values, inlined rows by the values their columns give.</li>
 * </ul>
 */
final class RowsMatching
{
    private RowsMatching() {}

    /** The rows of the table that {@code filter} (by column id) accepts; {@code condition} names it in errors. */
    static RowDeletes filter(CatalogSnapshot snapshot, long tableId, String tableName, ScanFilter filter, String condition)
    {
        Map<Long, TableColumn> columns = snapshot.model().columns(tableId).byId();
        ScanFilter normalized = ScanBuilder.normalized(filter, columns);
        RowDeletes deletes = RowDeletes.create();
        if (normalized.isNone()) {
            return deletes;
        }
        FilePruning pruning = FilePruning.of(snapshot, tableId, normalized, columns);
        Set<Long> statsColumns = normalized.domains().keySet();
        forEachFile(snapshot, tableId, statsColumns, (file, stats, values) -> {
            if (!pruning.mayMatch(file, stats, values)) {
                return;
            }
            if (!pruning.mustMatch(file, stats, values)) {
                throw new UnsupportedFeatureException("cannot overwrite the rows of " + tableName + " where " + condition + ": data file "
                        + file.getLong("data_file_id") + " (" + file.getString("path") + ") may hold rows that match it and rows that do not, and "
                        + "moraine decides an overwrite's rows from partition values and file statistics only. Overwrite by a condition on the "
                        + "table's identity partition columns, or run DELETE FROM " + tableName + " WHERE " + condition + " and then the insert");
            }
            deleteWhole(deletes, file);
        });
        List<TableColumn> read = normalized.domains().keySet().stream().map(columns::get).toList();
        forEachInlinedRow(snapshot, tableId, read, tableName, "where " + condition, (rowId, value) -> {
            boolean matches = true;
            for (TableColumn column : read) {
                ColumnDomain domain = normalized.domains().get(column.columnId());
                Object v = value.apply(column.columnId());
                if (!(v == null ? domain.nullAllowed() : domain.accepts(v))) {
                    matches = false;
                    break;
                }
            }
            if (matches) {
                deletes.inlinedRow(rowId);
            }
        });
        return deletes;
    }

    /**
     * The rows of the table in {@code partitions} (key value texts in key order, as {@link PartitionSpec#valueTexts}
     * gives them) of {@code spec}, the table's current spec. A file written under another spec is refused: its rows
     * cannot be placed in the current partitions from the catalog.
     */
    static RowDeletes partitions(CatalogSnapshot snapshot, long tableId, String tableName, PartitionSpec spec, Set<List<String>> partitions)
    {
        RowDeletes deletes = RowDeletes.create();
        if (partitions.isEmpty()) {
            return deletes;
        }
        forEachFile(snapshot, tableId, Set.of(), (file, stats, values) -> {
            Long partitionId = file.getLong("partition_id");
            if (partitionId == null || partitionId != spec.partitionId()) {
                throw new UnsupportedFeatureException("cannot overwrite partitions of " + tableName + ": data file " + file.getLong("data_file_id")
                        + " (" + file.getString("path") + ") was written under " + (partitionId == null ? "no partitioning" : "partition spec " + partitionId)
                        + ", not the table's current spec " + spec.partitionId() + ", so its rows' partitions are not known from the catalog. Rewrite "
                        + "the table's files first (CALL ducklake_rewrite_data_files, or INSERT OVERWRITE the whole table)");
            }
            List<String> key = new ArrayList<>(spec.keys().size());
            for (int index = 0; index < spec.keys().size(); index++) {
                if (!values.hasSingle(index) && values.has(index)) {
                    throw new UnsupportedFeatureException("cannot overwrite partitions of " + tableName + ": data file " + file.getLong("data_file_id")
                            + " (" + file.getString("path") + ") has several values for partition key " + index + "; overwrite the whole table instead");
                }
                key.add(values.single(index));
            }
            if (partitions.contains(key)) {
                deleteWhole(deletes, file);
            }
        });
        List<TableColumn> read = spec.keys().stream().map(key -> snapshot.model().columns(tableId).column(key.columnId()).orElseThrow()).distinct().toList();
        forEachInlinedRow(snapshot, tableId, read, tableName, "in the partitions written", (rowId, value) -> {
            if (partitions.contains(spec.valueTexts(value))) {
                deletes.inlinedRow(rowId);
            }
        });
        return deletes;
    }

    private static void deleteWhole(RowDeletes deletes, Row file)
    {
        long id = file.getLong("data_file_id");
        for (long position = 0; position < file.getLong("record_count"); position++) {
            deletes.fileRow(id, position);
        }
    }

    private interface FileVisitor
    {
        void visit(Row file, Map<Long, Row> stats, FilePartitionValues values);
    }

    private interface InlinedRowVisitor
    {
        void visit(long rowId, LongFunction<Object> columnValue);
    }

    /** Every live data file of the table with its stats rows of {@code statsColumns} and its partition values. */
    private static void forEachFile(CatalogSnapshot snapshot, long tableId, Set<Long> statsColumns, FileVisitor visitor)
    {
        try (RowCursor files = snapshot.dataFiles(tableId);
                RowCursor statsCursor = snapshot.fileColumnStats(tableId);
                RowCursor valuesCursor = snapshot.filePartitionValues(tableId)) {
            PeekingIterator<Row> stats = Iterators.peekingIterator(statsCursor);
            PeekingIterator<Row> values = Iterators.peekingIterator(valuesCursor);
            while (files.hasNext()) {
                Row file = files.next();
                long fileId = file.getLong("data_file_id");
                Map<Long, Row> fileStats = new HashMap<>();
                for (Row row : RowsOfDataFile.take(stats, fileId)) {
                    if (statsColumns.contains(row.getLong("column_id"))) {
                        fileStats.put(row.getLong("column_id"), row);
                    }
                }
                visitor.visit(file, fileStats, FilePartitionValues.of(RowsOfDataFile.take(values, fileId)));
            }
        }
    }

    /** Every live inlined row of the table with its values of {@code columns} in moraine's classes ({@link DuckLakeValues}). */
    private static void forEachInlinedRow(CatalogSnapshot snapshot, long tableId, List<TableColumn> columns, String tableName, String what,
            InlinedRowVisitor visitor)
    {
        List<Long> versions = snapshot.inlinedDataTables(tableId).stream().map(row -> row.getLong("schema_version")).toList();
        if (versions.isEmpty()) {
            return;
        }
        InlinedRowsTask task = new InlinedRowsTask(tableId, snapshot.id(), snapshot.viewHeadSnapshotId(), versions);
        try (RootAllocator allocator = new RootAllocator();
                InlinedRowsReader reader = InlinedRowsReader.open(snapshot, task, columns, InlineReader.DEFAULT_WINDOW_ROWS, allocator)) {
            while (reader.hasNext()) {
                InlinedRowsReader.Batch batch = reader.next();
                for (int row = 0; row < batch.rows(); row++) {
                    int at = row;
                    Map<Long, Object> values = new HashMap<>();
                    for (int index = 0; index < columns.size(); index++) {
                        TableColumn column = columns.get(index);
                        values.put(column.columnId(), value(column, batch.vector(index), at, tableName, what));
                    }
                    visitor.visit(batch.rowIds().get(row), values::get);
                }
            }
        }
    }

    /** One inlined value as moraine's class for the column's type; refused when it cannot be converted exactly. */
    private static Object value(TableColumn column, FieldVector vector, int row, String tableName, String what)
    {
        if (vector == null) {
            return column.initialDefault().map(text -> DuckLakeValues.parseDefault(column, text)).orElse(null);
        }
        if (vector.isNull(row)) {
            return null;
        }
        Object raw = switch (vector) {
            case DateDayVector days -> LocalDate.ofEpochDay(days.get(row));
            case org.apache.arrow.vector.VarCharVector text -> new String(text.get(row), java.nio.charset.StandardCharsets.UTF_8);
            case org.apache.arrow.vector.LargeVarCharVector text -> new String(text.get(row), java.nio.charset.StandardCharsets.UTF_8);
            case TimeStampMicroTZVector micros -> Instant.ofEpochSecond(Math.floorDiv(micros.get(row), 1_000_000L), Math.floorMod(micros.get(row), 1_000_000L) * 1000L);
            case UInt1Vector unsigned -> (long) UInt1Vector.getNoOverflow(unsigned.getDataBuffer(), row);
            case UInt2Vector unsigned -> (long) unsigned.get(row);
            case UInt4Vector unsigned -> UInt4Vector.getNoOverflow(unsigned.getDataBuffer(), row);
            case UInt8Vector unsigned -> UInt8Vector.getNoOverflow(unsigned.getDataBuffer(), row);
            default -> vector.getObject(row);
        };
        Optional<Object> value = DuckLakeValues.normalize(column.type(), raw);
        return value.orElseThrow(() -> new UnsupportedFeatureException("cannot overwrite the rows of " + tableName + " " + what + ": column "
                + column.name() + " of type " + column.type().duckLakeName() + " cannot be compared exactly in its inlined rows; flush the table's "
                + "inlined rows first (bin/moraine flush, or CALL ducklake_flush_inlined_data) or overwrite by another column"));
    }

    /**
     * The partitions of {@code spec} that rows a transaction adds fall in: its data files' partition values and, for
     * its inlined {@code batches} (in {@link InlinedArrowSchema}'s types), each row's.
     */
    static Set<List<String>> partitionsOf(PartitionSpec spec, io.moraine.core.types.TableSchema columns, List<io.moraine.core.write.files.WrittenDataFile> files,
            List<org.apache.arrow.vector.VectorSchemaRoot> batches, String tableName)
    {
        Set<List<String>> partitions = new java.util.HashSet<>();
        files.forEach(file -> partitions.add(file.partitionValues()));
        for (org.apache.arrow.vector.VectorSchemaRoot batch : batches) {
            for (int row = 0; row < batch.getRowCount(); row++) {
                int at = row;
                partitions.add(spec.valueTexts(columnId -> {
                    TableColumn column = columns.column(columnId).orElseThrow();
                    return value(column, batch.getVector(column.name()), at, tableName, "in the partitions written");
                }));
            }
        }
        return partitions;
    }
}
