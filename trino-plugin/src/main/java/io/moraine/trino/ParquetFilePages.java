package io.moraine.trino;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.TableKind;
import io.moraine.inline.DataFileVisibility;
import io.moraine.inline.DeletedPositions;
import io.trino.parquet.Column;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.reader.MetadataReader;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.TrinoException;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.ColumnIO;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static io.trino.parquet.ParquetTypeUtils.constructField;
import static io.trino.parquet.ParquetTypeUtils.getColumnIO;
import static io.trino.parquet.ParquetTypeUtils.getDescriptors;
import static io.trino.parquet.ParquetTypeUtils.lookupColumnById;
import static io.trino.parquet.metadata.PrunedBlockMetadata.createPrunedColumnsMetadata;
import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;
import static io.trino.spi.type.BigintType.BIGINT;

/**
 * Opens one DuckLake data file at a snapshot with Trino's Parquet reader (reference §4): columns matched by field id
 * (a column the file lacks reads as its default), the positions deleted at the snapshot, and, for a partial file whose
 * rows span snapshots after S, the field holding each row's snapshot. {@link ParquetFilePageSource} streams the pages.
 */
final class ParquetFilePages
{
    private ParquetFilePages() {}

    static ParquetFilePageSource open(CatalogSnapshot snapshot, String dataPath, MoraineTableHandle table, long dataFileId, List<MoraineColumnHandle> columns)
    {
        Row dataFile = snapshot.dataFile(table.tableId(), dataFileId).orElseThrow(() ->
                new TrinoException(GENERIC_INTERNAL_ERROR, "data file " + dataFileId + " is not visible at snapshot " + snapshot.id()));
        String tablePath = tablePath(snapshot, dataPath, table.tableId());
        Path path = DeletedPositions.localPath(CatalogPaths.filePath(tablePath, dataFile));
        if (!java.nio.file.Files.isRegularFile(path)) {
            throw new TrinoException(GENERIC_INTERNAL_ERROR, "data file " + dataFileId + " of table " + table.name()
                    + " is missing at " + path + " (data path " + dataPath + "); if the lake's files were moved, set moraine.data-path to their new root");
        }
        DataFileVisibility visibility = DataFileVisibility.at(snapshot, table.tableId(), dataFile, tablePath);
        ParquetReaderOptions options = ParquetReaderOptions.defaultOptions();
        LocalParquetDataSource source = null;
        try {
            source = new LocalParquetDataSource(path, options);
            ParquetMetadata metadata = MetadataReader.readFooter(source, Optional.empty());
            MessageType fileSchema = metadata.getFileMetaData().getSchema();
            MessageColumnIO columnIO = getColumnIO(fileSchema, fileSchema);
            List<Column> fields = new ArrayList<>();
            int[] fieldOfColumn = new int[columns.size()];
            for (int i = 0; i < columns.size(); i++) {
                MoraineColumnHandle column = columns.get(i);
                fieldOfColumn[i] = -1;
                Optional<ColumnIO> io = fieldId(fileSchema, column.columnId()).map(id -> lookupColumnById(columnIO, id));
                if (io.isPresent()) {
                    fieldOfColumn[i] = fields.size();
                    fields.add(new Column(column.name(), constructField(column.type(), io.get()).orElseThrow()));
                }
            }
            int snapshotField = -1;
            if (visibility.needsRowSnapshots()) {
                snapshotField = fields.size();
                fields.add(new Column("_ducklake_internal_snapshot_id",
                        constructField(BIGINT, lookupColumnById(columnIO, DataFileVisibility.SNAPSHOT_ID_FIELD_ID)).orElseThrow()));
            }
            Map<List<String>, ColumnDescriptor> descriptors = getDescriptors(fileSchema, fileSchema);
            List<RowGroupInfo> rowGroups = new ArrayList<>();
            long start = 0;
            for (BlockMetadata block : metadata.getBlocks()) {
                rowGroups.add(new RowGroupInfo(createPrunedColumnsMetadata(block, source.getId(), descriptors), start, Optional.empty()));
                start += block.rowCount();
            }
            ParquetReader reader = new ParquetReader(Optional.ofNullable(metadata.getFileMetaData().getCreatedBy()), fields, false, rowGroups,
                    source, DateTimeZone.UTC, newSimpleAggregatedMemoryContext(), options,
                    e -> new TrinoException(GENERIC_INTERNAL_ERROR, "reading " + path + " failed: " + e.getMessage(), e),
                    Optional.empty(), Optional.empty(), Optional.empty());
            return new ParquetFilePageSource(source, reader, columns, fieldOfColumn, snapshotField, visibility);
        }
        catch (IOException | RuntimeException e) {
            closeQuietly(source);
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new TrinoException(GENERIC_INTERNAL_ERROR, "reading data file " + path + " failed: " + e.getMessage(), e);
        }
    }

    private static void closeQuietly(LocalParquetDataSource source)
    {
        if (source == null) {
            return;
        }
        try {
            source.close();
        }
        catch (IOException ignored) {
            // the open already failed; that error is the one to report
        }
    }

    private static Optional<Integer> fieldId(MessageType schema, long columnId)
    {
        for (Type field : schema.getFields()) {
            if (field.getId() != null && field.getId().intValue() == columnId) {
                return Optional.of((int) columnId);
            }
        }
        return Optional.empty();
    }

    private static String tablePath(CatalogSnapshot snapshot, String dataPath, long tableId)
    {
        Row table = snapshot.table(tableId).orElseThrow();
        Row schema = snapshot.visible(TableKind.SCHEMA, table.getLong("schema_id")).toList().getFirst();
        return CatalogPaths.tablePath(dataPath, schema, table);
    }
}
