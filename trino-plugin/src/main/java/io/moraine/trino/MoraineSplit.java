package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.moraine.inline.PlannedDataFile;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One unit of a scan: the table's inlined rows, or the row groups of one data file that start in the byte range
 * {@code [start, start + length)} (large files are split on row-group boundaries). A data-file split carries what
 * reading the file needs (path, sizes, delete files, inlined deletes), so workers never go back to the catalog.
 */
public record MoraineSplit(Optional<DataFile> dataFile, long start, long length, double weight, long plannedHead)
        implements ConnectorSplit
{
    /** Hive's default minimum split weight ({@code hive.minimum-assigned-split-weight}). */
    private static final double MIN_WEIGHT = 0.05;

    @JsonCreator
    public MoraineSplit(@JsonProperty("dataFile") Optional<DataFile> dataFile, @JsonProperty("start") long start, @JsonProperty("length") long length,
            @JsonProperty("weight") double weight, @JsonProperty("plannedHead") long plannedHead)
    {
        this.dataFile = dataFile;
        this.start = start;
        this.length = length;
        this.weight = weight;
        this.plannedHead = plannedHead;
    }

    /**
     * The table's inlined rows. {@code plannedHead} is the store's newest snapshot in the view the data files were
     * planned from: the reader refuses to go on if the table's inlined data was flushed since (its rows would be lost).
     */
    public static MoraineSplit inlinedRows(long plannedHead)
    {
        return new MoraineSplit(Optional.empty(), 0, 0, 1.0, plannedHead);
    }

    /**
     * The row groups of {@code file} starting in {@code [start, start + length)}, weighted by their share of a full
     * split (at least {@link #MIN_WEIGHT}), so the scheduler queues proportionally more small splits per task, as
     * Hive's connector does.
     */
    public static MoraineSplit dataFile(PlannedDataFile file, long start, long length, long maxSplitSize)
    {
        return new MoraineSplit(Optional.of(DataFile.of(file)), start, length, Math.clamp((double) length / maxSplitSize, MIN_WEIGHT, 1.0), -1);
    }

    @Override
    public SplitWeight getSplitWeight()
    {
        return SplitWeight.fromProportion(weight);
    }

    @Override
    @JsonProperty
    public Optional<DataFile> dataFile()
    {
        return dataFile;
    }

    @Override
    @JsonProperty
    public long start()
    {
        return start;
    }

    @Override
    @JsonProperty
    public long length()
    {
        return length;
    }

    @Override
    @JsonProperty
    public double weight()
    {
        return weight;
    }

    @Override
    @JsonProperty
    public long plannedHead()
    {
        return plannedHead;
    }

    /** {@link PlannedDataFile} in a form Trino's JSON codec ships to workers. */
    public record DataFile(long dataFileId, String path, long sizeBytes, long recordCount, OptionalLong footerSize, OptionalLong partialMax,
            List<DeleteFile> deleteFiles, long[] inlinedDeletes)
    {
        @JsonCreator
        public DataFile(@JsonProperty("dataFileId") long dataFileId, @JsonProperty("path") String path, @JsonProperty("sizeBytes") long sizeBytes,
                @JsonProperty("recordCount") long recordCount, @JsonProperty("footerSize") OptionalLong footerSize,
                @JsonProperty("partialMax") OptionalLong partialMax, @JsonProperty("deleteFiles") List<DeleteFile> deleteFiles,
                @JsonProperty("inlinedDeletes") long[] inlinedDeletes)
        {
            this.dataFileId = dataFileId;
            this.path = path;
            this.sizeBytes = sizeBytes;
            this.recordCount = recordCount;
            this.footerSize = footerSize;
            this.partialMax = partialMax;
            this.deleteFiles = List.copyOf(deleteFiles);
            this.inlinedDeletes = inlinedDeletes.clone();
        }

        static DataFile of(PlannedDataFile file)
        {
            return new DataFile(file.dataFileId(), file.path(), file.sizeBytes(), file.recordCount(), file.footerSize(), file.partialMax(),
                    file.deleteFiles().stream().map(delete -> new DeleteFile(delete.path(), delete.sizeBytes(), delete.beginSnapshot(), delete.format())).toList(),
                    file.inlinedDeletes());
        }

        PlannedDataFile planned()
        {
            return new PlannedDataFile(dataFileId, path, sizeBytes, recordCount, footerSize, partialMax,
                    deleteFiles.stream().map(delete -> new PlannedDataFile.DeleteFile(delete.path(), delete.sizeBytes(), delete.beginSnapshot(), delete.format())).toList(),
                    inlinedDeletes);
        }

        @Override
        @JsonProperty
        public long dataFileId()
        {
            return dataFileId;
        }

        @Override
        @JsonProperty
        public String path()
        {
            return path;
        }

        @Override
        @JsonProperty
        public long sizeBytes()
        {
            return sizeBytes;
        }

        @Override
        @JsonProperty
        public long recordCount()
        {
            return recordCount;
        }

        @Override
        @JsonProperty
        public OptionalLong footerSize()
        {
            return footerSize;
        }

        @Override
        @JsonProperty
        public OptionalLong partialMax()
        {
            return partialMax;
        }

        @Override
        @JsonProperty
        public List<DeleteFile> deleteFiles()
        {
            return deleteFiles;
        }

        @Override
        @JsonProperty
        public long[] inlinedDeletes()
        {
            return inlinedDeletes.clone();
        }
    }

    public record DeleteFile(String path, OptionalLong sizeBytes, long beginSnapshot, String format)
    {
        @JsonCreator
        public DeleteFile(@JsonProperty("path") String path, @JsonProperty("sizeBytes") OptionalLong sizeBytes,
                @JsonProperty("beginSnapshot") long beginSnapshot, @JsonProperty("format") String format)
        {
            this.path = path;
            this.sizeBytes = sizeBytes;
            this.beginSnapshot = beginSnapshot;
            this.format = format;
        }

        @Override
        @JsonProperty
        public String path()
        {
            return path;
        }

        @Override
        @JsonProperty
        public OptionalLong sizeBytes()
        {
            return sizeBytes;
        }

        @Override
        @JsonProperty
        public long beginSnapshot()
        {
            return beginSnapshot;
        }

        @Override
        @JsonProperty
        public String format()
        {
            return format;
        }
    }
}
