package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorSplit;

import static io.airlift.slice.SizeOf.instanceSize;
import static io.airlift.slice.SizeOf.sizeOf;
import static java.util.Objects.requireNonNull;

/**
 * Rows of a metadata table, read from the catalog on the coordinator ({@link MetadataPages#splits}) and shipped with the
 * split, every column of each row encoded in turn: the page source decodes them and never opens the catalog.
 */
public final class MoraineMetadataSplit
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(MoraineMetadataSplit.class);

    private final byte[] rows;
    private final int rowCount;

    /** @param rows the encoded rows (not copied: nothing changes them) */
    @JsonCreator
    public MoraineMetadataSplit(@JsonProperty("rows") byte[] rows, @JsonProperty("rowCount") int rowCount)
    {
        this.rows = requireNonNull(rows, "rows is null");
        this.rowCount = rowCount;
    }

    @JsonProperty
    public byte[] getRows()
    {
        return rows;
    }

    @JsonProperty
    public int getRowCount()
    {
        return rowCount;
    }

    byte[] rows()
    {
        return rows;
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE + sizeOf(rows);
    }

    @Override
    public String toString()
    {
        return "metadata rows (" + rowCount + " rows, " + rows.length + " bytes)";
    }
}
