package io.moraine.sidecars.rowsum;

/** A {@code .rowsum} sidecar's fixed header: which file it describes and where its two halves lie. */
public record RowSummaryHeader(
        int version,
        long tableId,
        long dataFileId,
        String path,
        long fileSize,
        long rowCount,
        long setLength,
        long orderLength,
        int headerLength)
{
    public DataFileIdentity identity()
    {
        return new DataFileIdentity(tableId, dataFileId, path, fileSize);
    }

    public long setOffset()
    {
        return headerLength;
    }

    public long orderOffset()
    {
        return headerLength + setLength;
    }

    public boolean describes(DataFileIdentity file)
    {
        return tableId == file.tableId() && dataFileId == file.dataFileId() && fileSize == file.fileSize() && path.equals(file.path());
    }
}
