package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.error.StoreException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.io.ParquetReaders;
import io.moraine.core.row.Row;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.files.DataFileNames;
import io.moraine.core.write.files.DataFileRowWriteSupport;
import io.moraine.core.write.files.DataFileSchema;
import io.moraine.core.write.files.ParquetFileStatistics;
import io.moraine.core.write.files.ParquetFileWriter;
import io.moraine.core.write.files.WrittenDataFile;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * Writes a compaction's output file: the live rows of its sources in order (or in the table's sort order), with each
 * row's id and inserting snapshot in DuckLake's hidden columns where the compaction carries them, into the first
 * source's directory (the table's, when that source lies outside it) under a new {@code ducklake-<uuid>.parquet} name; measured from its own footer once written. When
 * the sources share one Parquet layout and carry field ids, their values are copied as they are; otherwise (a file added
 * by name, or files of one schema version laid out differently) each row is read into the layout DuckDB writes for the
 * table's columns ({@link RowConversion}).
 */
final class CompactionOutput
{
    /** A source file and the positions of its rows that are deleted (skipped). */
    record Input(CompactionSource source, Set<Long> deletedPositions) {}

    private final LakeFileSystem files;
    private final String tablePath;
    private final List<TableColumn> columns;

    CompactionOutput(LakeFileSystem files, String tablePath, List<TableColumn> columns)
    {
        this.files = files;
        this.tablePath = tablePath;
        this.columns = columns;
    }

    /**
     * The written file, or empty when no source row is live (nothing is written then); with a sort order, the rows are
     * held in memory (an output is bounded by the target file size) and written in that order, ties in source order.
     * {@code nameMappings} gives a mapped source's {@code ducklake_name_mapping} rows by mapping id.
     */
    Optional<WrittenDataFile> write(List<Input> inputs, boolean rowIds, boolean snapshotIds, List<String> partitionValues,
            Optional<CompactionSortOrder> sortOrder, Function<Long, List<Row>> nameMappings)
    {
        String path = directory(inputs.getFirst().source()) + DataFileNames.dataFileName();
        try {
            List<MessageType> schemas = new ArrayList<>();
            for (Input input : inputs) {
                try (ParquetFileReader reader = open(input.source())) {
                    schemas.add(reader.getFooter().getFileMetaData().getSchema());
                }
            }
            boolean copy = inputs.stream().allMatch(input -> input.source().file().get("mapping_id") == null)
                    && schemas.stream().map(CompactionOutput::userFields).distinct().count() == 1;
            MessageType userSchema = copy ? new MessageType(schemas.getFirst().getName(), userFields(schemas.getFirst()))
                    : DataFileSchema.of(columns, false);
            Output output = new Output(path, userSchema, rowIds, snapshotIds);
            int[] sortFields = sortOrder.map(order -> order.fieldsOf(userSchema)).orElse(null);
            List<SortedRow> sorted = new ArrayList<>();
            for (int index = 0; index < inputs.size(); index++) {
                Input input = inputs.get(index);
                CompactionSource source = input.source();
                MessageType schema = schemas.get(index);
                Long mappingId = source.file().getLong("mapping_id");
                RowConversion conversion = copy ? null : RowConversion.of(schema, userSchema,
                        Optional.ofNullable(mappingId).map(nameMappings), defaulted(columns), path(source));
                int rowIdField = schema.containsField(DataFileSchema.ROW_ID_NAME) ? schema.getFieldIndex(DataFileSchema.ROW_ID_NAME) : -1;
                int snapshotField = schema.containsField(DataFileSchema.SNAPSHOT_ID_NAME) ? schema.getFieldIndex(DataFileSchema.SNAPSHOT_ID_NAME) : -1;
                try (ParquetFileReader reader = open(source)) {
                    long position = 0;
                    PageReadStore pages;
                    while ((pages = reader.readNextRowGroup()) != null) {
                        RecordReader<Group> records = new ColumnIOFactory().getColumnIO(schema).getRecordReader(pages, new GroupRecordConverter(schema));
                        for (long i = 0; i < pages.getRowCount(); i++, position++) {
                            Group group = records.read();
                            if (input.deletedPositions().contains(position)) {
                                continue;
                            }
                            long rowId = rowIdField >= 0 ? group.getLong(rowIdField, 0) : source.rowIdStart() + position;
                            long snapshotId = snapshotField >= 0 ? group.getLong(snapshotField, 0) : source.beginSnapshot();
                            Group values = conversion == null ? group : conversion.convert(group);
                            DataFileRowWriteSupport.Row<Group> row = new DataFileRowWriteSupport.Row<>(values, rowId, snapshotId);
                            if (sortOrder.isPresent()) {
                                sorted.add(new SortedRow(sortOrder.get().keyOf(values, userSchema, sortFields), row));
                            }
                            else {
                                output.write(row);
                            }
                        }
                    }
                }
            }
            if (sortOrder.isPresent()) {
                // List.sort is stable: rows of equal keys keep their source order (DuckDB's sort does not promise one)
                Comparator<Comparable<?>[]> keys = sortOrder.get().comparator();
                sorted.sort((left, right) -> keys.compare(left.key(), right.key()));
                for (SortedRow row : sorted) {
                    output.write(row.row());
                }
            }
            return output.finish(partitionValues);
        }
        catch (IOException e) {
            deleteQuietly(path);
            throw new StoreException("compacting data files of the table into " + path + " failed: " + e.getMessage()
                    + "; nothing was committed, run the compaction again once the file system answers", e);
        }
        catch (RuntimeException e) {
            deleteQuietly(path);
            throw e;
        }
    }

    /**
     * Where the output goes: the first source's directory (a partition's, in a partitioned table); the table's own
     * directory when that source lies elsewhere (a file added where it was), as DuckLake writes into the table's path.
     */
    private String directory(CompactionSource first)
    {
        if (!Boolean.TRUE.equals(first.file().get("path_is_relative"))) {
            return tablePath;
        }
        String firstPath = path(first);
        return firstPath.substring(0, firstPath.lastIndexOf('/') + 1);
    }

    private ParquetFileReader open(CompactionSource source)
            throws IOException
    {
        return ParquetReaders.open(files.newInputFile(path(source), OptionalLong.of(source.sizeBytes())));
    }

    /** The field ids of the columns (nested ones too) that have an initial default. */
    private static Set<Integer> defaulted(List<TableColumn> columns)
    {
        Set<Integer> ids = new java.util.HashSet<>();
        for (TableColumn column : columns) {
            column.initialDefault().filter(value -> !value.strip().equalsIgnoreCase("NULL")).ifPresent(value -> ids.add(Math.toIntExact(column.columnId())));
            ids.addAll(defaulted(column.children()));
        }
        return ids;
    }

    private static List<Type> userFields(MessageType schema)
    {
        return schema.getFields().stream().filter(field -> !isHidden(field)).toList();
    }

    private record SortedRow(Comparable<?>[] key, DataFileRowWriteSupport.Row<Group> row) {}

    /** The output file, opened at its first row. */
    private final class Output
    {
        private final String path;
        private final MessageType userSchema;
        private final boolean rowIds;
        private final boolean snapshotIds;
        private ParquetFileWriter<DataFileRowWriteSupport.Row<Group>> writer;
        private long rows;
        // the top-level FLOAT/DOUBLE fields a NaN was written to: parquet-java's footer carries no NaN count to read back
        private final Set<Integer> nanFieldIds = new java.util.HashSet<>();

        Output(String path, MessageType userSchema, boolean rowIds, boolean snapshotIds)
        {
            this.path = path;
            this.userSchema = userSchema;
            this.rowIds = rowIds;
            this.snapshotIds = snapshotIds;
        }

        void write(DataFileRowWriteSupport.Row<Group> row)
                throws IOException
        {
            if (writer == null) {
                List<Type> outputFields = new ArrayList<>(userSchema.getFields());
                if (rowIds) {
                    outputFields.add(DataFileSchema.rowIdColumn());
                }
                if (snapshotIds) {
                    outputFields.add(DataFileSchema.snapshotIdColumn());
                }
                writer = ParquetFileWriter.create(files, path,
                        new DataFileRowWriteSupport<>(new MessageType(userSchema.getName(), outputFields), rowIds, snapshotIds, CompactionOutput::copyFields));
            }
            writer.write(row);
            rows++;
            noteNans(row.values());
        }

        private void noteNans(Group values)
        {
            GroupType written = values.getType(); // the row as read, matched to the output's columns by field id
            for (int field = 0; field < written.getFieldCount(); field++) {
                Type type = written.getType(field);
                if (!type.isPrimitive() || type.getId() == null || values.getFieldRepetitionCount(field) == 0) {
                    continue;
                }
                var primitive = type.asPrimitiveType().getPrimitiveTypeName();
                boolean nan = switch (primitive) {
                    case DOUBLE -> Double.isNaN(values.getDouble(field, 0));
                    case FLOAT -> Float.isNaN(values.getFloat(field, 0));
                    default -> false;
                };
                if (nan) {
                    nanFieldIds.add(type.getId().intValue());
                }
            }
        }

        /** {@code contains_nan} of the top-level floating-point columns as written (nested leaves keep the footer's answer). */
        private List<io.moraine.core.write.files.FileColumnStatistics> withWrittenNans(List<io.moraine.core.write.files.FileColumnStatistics> statistics)
        {
            java.util.Map<Long, Boolean> nans = new java.util.HashMap<>();
            for (Type field : userSchema.getFields()) {
                if (field.isPrimitive() && field.getId() != null) {
                    nans.put((long) field.getId().intValue(), nanFieldIds.contains(field.getId().intValue()));
                }
            }
            return ParquetFileStatistics.withWrittenNans(statistics, nans);
        }

        Optional<WrittenDataFile> finish(List<String> partitionValues)
                throws IOException
        {
            if (writer == null) {
                return Optional.empty();
            }
            writer.close();
            try (ParquetFileReader reader = ParquetReaders.open(files.newInputFile(path, OptionalLong.of(writer.sizeBytes())))) {
                return Optional.of(new WrittenDataFile(path, writer.sizeBytes(), writer.footerSize(), rows,
                        withWrittenNans(ParquetFileStatistics.fromFooter(reader.getFooter(), columns)), partitionValues));
            }
        }
    }

    void deleteQuietly(String path)
    {
        try {
            files.deleteFile(path);
        }
        catch (IOException | RuntimeException ignored) {
            // never written, or an orphan for the clean-up of orphaned files
        }
    }

    private String path(CompactionSource source)
    {
        return CatalogPaths.filePath(tablePath, source.file());
    }

    private static boolean isHidden(Type field)
    {
        return field.getName().equals(DataFileSchema.ROW_ID_NAME) || field.getName().equals(DataFileSchema.SNAPSHOT_ID_NAME);
    }

    private static void copyFields(Group group, GroupType type, int fields, RecordConsumer consumer)
    {
        for (int field = 0; field < fields; field++) {
            int repetitions = group.getFieldRepetitionCount(field);
            if (repetitions == 0) {
                continue;
            }
            String name = type.getFieldName(field);
            consumer.startField(name, field);
            for (int index = 0; index < repetitions; index++) {
                if (type.getType(field).isPrimitive()) {
                    group.writeValue(field, index, consumer);
                }
                else {
                    GroupType child = type.getType(field).asGroupType();
                    consumer.startGroup();
                    copyFields(group.getGroup(field, index), child, child.getFieldCount(), consumer);
                    consumer.endGroup();
                }
            }
            consumer.endField(name, field);
        }
    }
}
