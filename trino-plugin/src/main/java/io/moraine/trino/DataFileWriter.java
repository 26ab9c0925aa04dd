package io.moraine.trino;

import io.airlift.units.DataSize;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.files.DataFileTarget;
import io.moraine.core.write.files.DataFileWriterSettings;
import io.moraine.core.write.files.FileColumnStatistics;
import io.moraine.core.write.files.ParquetFileStatistics;
import io.moraine.core.write.files.WrittenDataFile;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.parquet.writer.ParquetWriter;
import io.trino.parquet.writer.ParquetWriterOptions;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.moraine.trino.MoraineErrorCode.MORAINE_STORE_ERROR;

/**
 * One data file written with Trino's Parquet writer where the core's {@link DataFileTarget} says, in its schema (field
 * ids) and with its settings. {@link #close} hands the file back as a {@link WrittenDataFile} measured from the footer
 * the writer itself produced (converted to parquet-java's model with {@link ParquetMetadataConverter}): the file is not
 * read again.
 */
final class DataFileWriter
{
    private final DataFileTarget target;
    private final String location;
    private final CountingOutputStream output;
    private final ParquetWriter writer;
    private final TrinoFileSystem fileSystem;
    private final List<Type> columnTypes;
    // Whether a NaN was written to each top-level REAL/DOUBLE column: Trino's footer carries no NaN count for the core to read
    private final boolean[] nanWritten;
    private long rows;

    DataFileWriter(TrinoFileSystem fileSystem, DataFileTarget target, String location, List<Type> columnTypes, String trinoVersion)
    {
        this.fileSystem = fileSystem;
        this.target = target;
        this.location = location;
        this.columnTypes = List.copyOf(columnTypes);
        this.nanWritten = new boolean[columnTypes.size()];
        DataFileWriterSettings settings = target.settings();
        ParquetWriterOptions.Builder options = ParquetWriterOptions.builder()
                .setMaxRowGroupRowCount(Math.toIntExact(Math.min(Integer.MAX_VALUE, settings.rowGroupRows())));
        settings.rowGroupBytes().ifPresent(bytes -> options.setMaxBlockSize(DataSize.ofBytes(bytes)));
        try {
            this.output = new CountingOutputStream(fileSystem.newOutputFile(io.moraine.files.LakeLocations.location(location)).create());
            this.writer = new ParquetWriter(output, target.schema(), primitiveTypes(target.schema(), columnTypes), options.build(),
                    settings.compression().getParquetCompressionCodec(), trinoVersion, Optional.empty(), Optional.empty());
        }
        catch (IOException e) {
            throw new TrinoException(MORAINE_STORE_ERROR, "creating data file " + location + " failed: " + e.getMessage(), e);
        }
    }

    void write(Page page)
    {
        try {
            writer.write(page);
            rows += page.getPositionCount();
            for (int channel = 0; channel < columnTypes.size() && channel < page.getChannelCount(); channel++) {
                if (!nanWritten[channel] && isFloatingPoint(columnTypes.get(channel))) {
                    nanWritten[channel] = holdsNan(columnTypes.get(channel), page.getBlock(channel));
                }
            }
        }
        catch (IOException e) {
            throw new TrinoException(MORAINE_STORE_ERROR, "writing data file " + location + " failed: " + e.getMessage(), e);
        }
    }

    long writtenBytes()
    {
        return writer.getEstimatedWrittenBytes();
    }

    /** Finishes the file and measures it: size, footer size, rows, DuckDB's statistics of every leaf of {@code columns}. */
    WrittenDataFile close(List<TableColumn> columns)
    {
        try {
            writer.close();
            FileMetaData footer = writer.getFileMetaData();
            ByteArrayOutputStream serialized = new ByteArrayOutputStream();
            Util.writeFileMetaData(footer, serialized);
            ParquetMetadata metadata = new ParquetMetadataConverter().fromParquetMetadata(footer);
            return new WrittenDataFile(target.location(), output.count, serialized.size(), rows,
                    withWrittenNans(ParquetFileStatistics.fromFooter(metadata, columns), columns), target.partitionValues());
        }
        catch (IOException e) {
            throw new TrinoException(MORAINE_STORE_ERROR, "finishing data file " + location + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * The statistics with {@code contains_nan} of every top-level REAL/DOUBLE column as written: without a NaN count in the
     * footer the core must assume a NaN, but this writer saw every value (nested floating-point leaves keep the core's answer).
     */
    private List<FileColumnStatistics> withWrittenNans(List<FileColumnStatistics> statistics, List<TableColumn> columns)
    {
        Map<Long, Boolean> nans = new HashMap<>();
        for (int i = 0; i < columns.size() && i < columnTypes.size(); i++) {
            if (isFloatingPoint(columnTypes.get(i))) {
                nans.put(columns.get(i).columnId(), nanWritten[i]);
            }
        }
        return ParquetFileStatistics.withWrittenNans(statistics, nans);
    }

    private static boolean isFloatingPoint(Type type)
    {
        return type instanceof DoubleType || type instanceof RealType;
    }

    private static boolean holdsNan(Type type, Block block)
    {
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (!block.isNull(position)) {
                double value = type instanceof RealType real ? real.getFloat(block, position) : ((DoubleType) type).getDouble(block, position);
                if (Double.isNaN(value)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Stops writing and deletes what was written. */
    void abort()
    {
        try (writer) {
            // closing writes a footer; the file is deleted below
        }
        catch (IOException | RuntimeException ignored) {
            // the file goes anyway
        }
        try {
            fileSystem.deleteFile(io.moraine.files.LakeLocations.location(location));
        }
        catch (IOException ignored) {
            // an orphan file: not referenced by the catalog
        }
    }

    /** The Trino type of every leaf of {@code schema}, by path, walking the columns' types alongside it. */
    static Map<List<String>, Type> primitiveTypes(MessageType schema, List<Type> columnTypes)
    {
        Map<List<String>, Type> types = new HashMap<>();
        for (int i = 0; i < columnTypes.size(); i++) {
            collect(schema.getType(i), columnTypes.get(i), new ArrayList<>(), types);
        }
        return types;
    }

    private static void collect(org.apache.parquet.schema.Type field, Type type, List<String> parent, Map<List<String>, Type> types)
    {
        List<String> path = new ArrayList<>(parent);
        path.add(field.getName());
        if (field.isPrimitive()) {
            types.put(List.copyOf(path), type);
            return;
        }
        GroupType group = field.asGroupType();
        switch (type) {
            case RowType row -> {
                for (int i = 0; i < row.getFields().size(); i++) {
                    collect(group.getType(i), row.getFields().get(i).getType(), path, types);
                }
            }
            case ArrayType array -> {
                GroupType repeated = group.getType(0).asGroupType();
                path.add(repeated.getName());
                collect(repeated.getType(0), array.getElementType(), path, types);
            }
            case MapType map -> {
                GroupType repeated = group.getType(0).asGroupType();
                path.add(repeated.getName());
                collect(repeated.getType(0), map.getKeyType(), path, types);
                collect(repeated.getType(1), map.getValueType(), path, types);
            }
            default -> throw new IllegalStateException("column " + field.getName() + " is a Parquet group but Trino type " + type);
        }
    }

    private static final class CountingOutputStream
            extends FilterOutputStream
    {
        private long count;

        CountingOutputStream(OutputStream out)
        {
            super(out);
        }

        @Override
        public void write(int b)
                throws IOException
        {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] bytes, int offset, int length)
                throws IOException
        {
            out.write(bytes, offset, length);
            count += length;
        }
    }
}
