package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.error.StoreException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.io.ParquetReaders;
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

    /** The written file, or empty when no source row is live (nothing is written then). */
    Optional<WrittenDataFile> write(List<Input> inputs, boolean rowIds, boolean snapshotIds, List<String> partitionValues)
    {
        String firstPath = path(inputs.getFirst().source());
        String path = firstPath.substring(0, firstPath.lastIndexOf('/') + 1) + DataFileNames.dataFileName();
        List<Type> userFields = null;
        ParquetFileWriter<DataFileRowWriteSupport.Row<Group>> writer = null;
        long rows = 0;
        try {
            for (Input input : inputs) {
                CompactionSource source = input.source();
                String sourcePath = path(source);
                try (ParquetFileReader reader = ParquetReaders.open(files.newInputFile(sourcePath, OptionalLong.of(source.sizeBytes())))) {
                    MessageType schema = reader.getFooter().getFileMetaData().getSchema();
                    List<Type> fields = schema.getFields();
                    int user = (int) fields.stream().filter(field -> !isHidden(field)).count();
                    List<Type> sourceUser = fields.subList(0, user);
                    if (userFields == null) {
                        userFields = sourceUser;
                    }
                    else if (!userFields.equals(sourceUser)) {
                        throw new UnsupportedFeatureException("data file " + sourcePath + " has another Parquet schema than " + path(inputs.getFirst().source())
                                + " though both were written at one schema version; the core merges files of one layout only — compact this table "
                                + "through DuckDB's ducklake_merge_adjacent_files");
                    }
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
                            if (writer == null) {
                                List<Type> outputFields = new ArrayList<>(userFields);
                                if (rowIds) {
                                    outputFields.add(DataFileSchema.rowIdColumn());
                                }
                                if (snapshotIds) {
                                    outputFields.add(DataFileSchema.snapshotIdColumn());
                                }
                                writer = ParquetFileWriter.create(files, path,
                                        new DataFileRowWriteSupport<>(new MessageType(schema.getName(), outputFields), rowIds, snapshotIds, CompactionOutput::copyFields));
                            }
                            long rowId = rowIdField >= 0 ? group.getLong(rowIdField, 0) : source.rowIdStart() + position;
                            long snapshotId = snapshotField >= 0 ? group.getLong(snapshotField, 0) : source.beginSnapshot();
                            writer.write(new DataFileRowWriteSupport.Row<>(group, rowId, snapshotId));
                            rows++;
                        }
                    }
                }
            }
            if (writer == null) {
                return Optional.empty();
            }
            writer.close();
            try (ParquetFileReader reader = ParquetReaders.open(files.newInputFile(path, OptionalLong.of(writer.sizeBytes())))) {
                return Optional.of(new WrittenDataFile(path, writer.sizeBytes(), writer.footerSize(), rows,
                        ParquetFileStatistics.fromFooter(reader.getFooter(), columns), partitionValues));
            }
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

    /** Copies the first {@code fields} fields of a source row, value for value, nested groups included. */
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

    private static boolean isHidden(Type field)
    {
        return field.getName().equals(DataFileSchema.ROW_ID_NAME) || field.getName().equals(DataFileSchema.SNAPSHOT_ID_NAME);
    }
}
