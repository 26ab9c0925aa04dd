package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.error.StoreException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.io.ParquetReaders;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.files.DataFileNames;
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
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Writes a compaction's output file: the live rows of its sources in order, value for value (the sources share one
 * schema version, so one Parquet schema), with each row's id and inserting snapshot in DuckLake's hidden columns
 * where the compaction carries them, into the first source's directory under a new {@code ducklake-<uuid>.parquet}
 * name; measured from its own footer once written.
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
     */
    Optional<WrittenDataFile> write(List<Input> inputs, boolean rowIds, boolean snapshotIds, List<String> partitionValues,
            Optional<CompactionSortOrder> sortOrder)
    {
        String firstPath = path(inputs.getFirst().source());
        String path = firstPath.substring(0, firstPath.lastIndexOf('/') + 1) + DataFileNames.dataFileName();
        Output output = new Output(path, rowIds, snapshotIds);
        List<SortedRow> sorted = new ArrayList<>();
        try {
            for (Input input : inputs) {
                CompactionSource source = input.source();
                String sourcePath = path(source);
                try (ParquetFileReader reader = ParquetReaders.open(files.newInputFile(sourcePath, OptionalLong.of(source.sizeBytes())))) {
                    MessageType schema = reader.getFooter().getFileMetaData().getSchema();
                    output.accept(schema, sourcePath);
                    int[] sortFields = sortOrder.map(order -> order.fieldsOf(schema)).orElse(null);
                    int rowIdField = schema.containsField(DataFileSchema.ROW_ID_NAME) ? schema.getFieldIndex(DataFileSchema.ROW_ID_NAME) : -1;
                    int snapshotField = schema.containsField(DataFileSchema.SNAPSHOT_ID_NAME) ? schema.getFieldIndex(DataFileSchema.SNAPSHOT_ID_NAME) : -1;
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
                            CopiedRowWriteSupport.CopiedRow row = new CopiedRowWriteSupport.CopiedRow(group, rowId, snapshotId);
                            if (sortOrder.isPresent()) {
                                sorted.add(new SortedRow(sortOrder.get().keyOf(group, schema, sortFields), row));
                            }
                            else {
                                output.write(row);
                            }
                        }
                    }
                }
            }
            if (sortOrder.isPresent()) {
                // List.sort is stable: rows of equal keys keep their source order, as DuckDB's sort of the scan keeps them
                Comparator<Comparable<?>[]> keys = sortOrder.get().comparator();
                sorted.sort((left, right) -> keys.compare(left.key(), right.key()));
                for (SortedRow row : sorted) {
                    output.write(row.row());
                }
                sorted.clear();
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

    private record SortedRow(Comparable<?>[] key, CopiedRowWriteSupport.CopiedRow row) {}

    /** The output file, opened at its first row, with the user fields every source must share. */
    private final class Output
    {
        private final String path;
        private final boolean rowIds;
        private final boolean snapshotIds;
        private MessageType firstSchema;
        private String firstPath;
        private List<Type> userFields;
        private ParquetFileWriter<CopiedRowWriteSupport.CopiedRow> writer;
        private long rows;

        Output(String path, boolean rowIds, boolean snapshotIds)
        {
            this.path = path;
            this.rowIds = rowIds;
            this.snapshotIds = snapshotIds;
        }

        void accept(MessageType schema, String sourcePath)
        {
            List<Type> fields = schema.getFields();
            int user = (int) fields.stream().filter(field -> !isHidden(field)).count();
            List<Type> sourceUser = fields.subList(0, user);
            if (userFields == null) {
                userFields = sourceUser;
                firstSchema = schema;
                firstPath = sourcePath;
            }
            else if (!userFields.equals(sourceUser)) {
                throw new UnsupportedFeatureException("data file " + sourcePath + " has another Parquet schema than " + firstPath
                        + " though both were written at one schema version; the core merges files of one layout only — compact this table "
                        + "through DuckDB's ducklake_merge_adjacent_files");
            }
        }

        void write(CopiedRowWriteSupport.CopiedRow row)
                throws IOException
        {
            if (writer == null) {
                List<Type> outputFields = new ArrayList<>(userFields);
                if (rowIds) {
                    outputFields.add(DataFileSchema.rowIdColumn());
                }
                if (snapshotIds) {
                    outputFields.add(DataFileSchema.snapshotIdColumn());
                }
                writer = ParquetFileWriter.create(files, path,
                        new CopiedRowWriteSupport(new MessageType(firstSchema.getName(), outputFields), userFields.size(), rowIds, snapshotIds));
            }
            writer.write(row);
            rows++;
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
                        ParquetFileStatistics.fromFooter(reader.getFooter(), columns), partitionValues));
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
}
