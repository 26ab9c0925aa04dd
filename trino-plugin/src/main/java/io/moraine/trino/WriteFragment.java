package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.airlift.json.JsonCodec;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.moraine.core.write.files.FileColumnStatistics;
import io.moraine.core.write.files.WrittenDataFile;

import java.util.List;
import java.util.Optional;

/**
 * What one page sink hands the coordinator (Trino's "fragment", as Iceberg's {@code CommitTaskData}): either a data
 * file it wrote, as the core's {@link WrittenDataFile}, or, when all its rows fit the table's inlining limit, those rows
 * as one Arrow IPC stream in {@code InlinedArrowSchema}'s types for the coordinator to inline (or write to a file, when
 * the statement's rows over every sink exceed the limit).
 */
public record WriteFragment(Optional<DataFile> file, Optional<Inlined> inlined, Optional<Updated> updated, Optional<Deletes> deletes)
{
    private static final JsonCodec<WriteFragment> CODEC = JsonCodec.jsonCodec(WriteFragment.class);

    @JsonCreator
    public WriteFragment(@JsonProperty("file") Optional<DataFile> file, @JsonProperty("inlined") Optional<Inlined> inlined,
            @JsonProperty("updated") Optional<Updated> updated, @JsonProperty("deletes") Optional<Deletes> deletes)
    {
        this.file = file;
        this.inlined = inlined;
        this.updated = updated;
        this.deletes = deletes;
    }

    @Override
    @JsonProperty
    public Optional<Updated> updated()
    {
        return updated;
    }

    @Override
    @JsonProperty
    public Optional<Deletes> deletes()
    {
        return deletes;
    }

    @Override
    @JsonProperty
    public Optional<DataFile> file()
    {
        return file;
    }

    @Override
    @JsonProperty
    public Optional<Inlined> inlined()
    {
        return inlined;
    }

    static WriteFragment of(WrittenDataFile file)
    {
        return new WriteFragment(Optional.of(DataFile.of(file)), Optional.empty(), Optional.empty(), Optional.empty());
    }

    static WriteFragment inlined(long rows, byte[] arrowIpc)
    {
        return new WriteFragment(Optional.empty(), Optional.of(new Inlined(rows, arrowIpc)), Optional.empty(), Optional.empty());
    }

    /** The insert half of an update small enough to inline: the rows, each keeping the row id it had. */
    static WriteFragment updated(long[] rowIds, byte[] arrowIpc)
    {
        return new WriteFragment(Optional.empty(), Optional.empty(), Optional.of(new Updated(rowIds, arrowIpc)), Optional.empty());
    }

    /** Rows a DELETE, UPDATE or MERGE task deleted, as their merge row ids named them. */
    static WriteFragment deletes(Deletes deletes)
    {
        return new WriteFragment(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(deletes));
    }

    Slice toSlice()
    {
        return Slices.wrappedBuffer(CODEC.toJsonBytes(this));
    }

    static WriteFragment fromSlice(Slice slice)
    {
        return CODEC.fromJson(slice.getBytes());
    }

    public record Inlined(@JsonProperty("rows") long rows, @JsonProperty("arrowIpc") byte[] arrowIpc)
    {
        @JsonCreator
        public Inlined {}
    }

    public record Updated(@JsonProperty("rowIds") long[] rowIds, @JsonProperty("arrowIpc") byte[] arrowIpc)
    {
        @JsonCreator
        public Updated {}
    }

    /** File rows by (data file id, position), {@code fileIds[i]} with {@code positions[i]}; inlined rows by row id. */
    public record Deletes(@JsonProperty("fileIds") long[] fileIds, @JsonProperty("positions") long[] positions,
            @JsonProperty("inlinedRowIds") long[] inlinedRowIds)
    {
        @JsonCreator
        public Deletes {}
    }

    public record DataFile(@JsonProperty("path") String path, @JsonProperty("fileSizeBytes") long fileSizeBytes, @JsonProperty("footerSize") long footerSize,
            @JsonProperty("recordCount") long recordCount, @JsonProperty("columnStatistics") List<ColumnStatistics> columnStatistics,
            @JsonProperty("partitionValues") List<Optional<String>> partitionValues)
    {
        @JsonCreator
        public DataFile {}

        static DataFile of(WrittenDataFile file)
        {
            return new DataFile(file.path(), file.fileSizeBytes(), file.footerSize(), file.recordCount(),
                    file.columnStatistics().stream().map(ColumnStatistics::of).toList(),
                    file.partitionValues().stream().map(Optional::ofNullable).toList());
        }

        WrittenDataFile toWrittenDataFile()
        {
            return new WrittenDataFile(path, fileSizeBytes, footerSize, recordCount, columnStatistics.stream().map(ColumnStatistics::toCore).toList(),
                    partitionValues.stream().map(value -> value.orElse(null)).toList());
        }
    }

    public record ColumnStatistics(@JsonProperty("columnId") long columnId, @JsonProperty("columnSizeBytes") Long columnSizeBytes,
            @JsonProperty("valueCount") Long valueCount, @JsonProperty("nullCount") Long nullCount, @JsonProperty("minValue") String minValue,
            @JsonProperty("maxValue") String maxValue, @JsonProperty("containsNan") Boolean containsNan, @JsonProperty("extraStats") String extraStats)
    {
        @JsonCreator
        public ColumnStatistics {}

        static ColumnStatistics of(FileColumnStatistics statistics)
        {
            return new ColumnStatistics(statistics.columnId(), statistics.columnSizeBytes(), statistics.valueCount(), statistics.nullCount(),
                    statistics.minValue(), statistics.maxValue(), statistics.containsNan(), statistics.extraStats());
        }

        FileColumnStatistics toCore()
        {
            return new FileColumnStatistics(columnId, columnSizeBytes, valueCount, nullCount, minValue, maxValue, containsNan, extraStats);
        }
    }
}
