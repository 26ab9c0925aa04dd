package io.moraine.core.error;

/**
 * A data file the catalog records as holding rows of several snapshots ({@code partial_max} set) has no
 * {@code _ducklake_internal_snapshot_id} column, so the rows a read must leave out cannot be told from the others.
 * DuckLake refuses such a file the same way ("Snapshot filter was specified but snapshot column was not present in
 * file"); every moraine reader refuses it with this error, naming the file, its table and what to do.
 */
public class PartialFileWithoutSnapshotsException
        extends CorruptionException
{
    private final long dataFileId;
    private final String path;
    private final String table;

    public PartialFileWithoutSnapshotsException(long dataFileId, String path, String table, String message)
    {
        super(message);
        this.dataFileId = dataFileId;
        this.path = path;
        this.table = table;
    }

    public long dataFileId()
    {
        return dataFileId;
    }

    public String path()
    {
        return path;
    }

    /** The table as the reader named it ({@code schema.table}). */
    public String table()
    {
        return table;
    }
}
