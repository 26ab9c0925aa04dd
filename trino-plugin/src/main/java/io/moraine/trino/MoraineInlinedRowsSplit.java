package io.moraine.trino;

import io.moraine.core.inline.read.InlinedRowsPiece;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

import static io.airlift.slice.SizeOf.instanceSize;
import static io.airlift.slice.SizeOf.sizeOf;
import static java.util.Objects.requireNonNull;

/**
 * A bounded piece of a table's inlined rows, read on the coordinator by the split source and shipped to a worker with
 * the split (the inline reader's {@link InlinedRowsPiece}: an Arrow IPC stream, base64 in the split's JSON): the page
 * source decodes it and never opens the catalog. Weighted by its share of the piece bound, as data-file splits are by
 * theirs of the split size.
 */
public final class MoraineInlinedRowsSplit
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(MoraineInlinedRowsSplit.class);
    private static final double MIN_WEIGHT = 0.05;

    private final byte[] rows;
    private final long rowCount;
    private final double weight;

    /** @param rows the piece's Arrow IPC stream (not copied: a piece can be large, and nothing changes it) */
    @JsonCreator
    public MoraineInlinedRowsSplit(@JsonProperty("rows") byte[] rows, @JsonProperty("rowCount") long rowCount, @JsonProperty("weight") double weight)
    {
        this.rows = requireNonNull(rows, "rows is null");
        this.rowCount = rowCount;
        this.weight = weight;
    }

    static MoraineInlinedRowsSplit of(InlinedRowsPiece piece, long maxBytes)
    {
        return new MoraineInlinedRowsSplit(piece.arrowStream(), piece.rows(), Math.clamp((double) piece.arrowStream().length / maxBytes, MIN_WEIGHT, 1.0));
    }

    @JsonProperty
    public byte[] getRows()
    {
        return rows;
    }

    @JsonProperty
    public long getRowCount()
    {
        return rowCount;
    }

    @JsonProperty
    public double getWeight()
    {
        return weight;
    }

    /** The piece's Arrow IPC stream. */
    byte[] piece()
    {
        return rows;
    }

    @Override
    public SplitWeight getSplitWeight()
    {
        return SplitWeight.fromProportion(weight);
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE + sizeOf(rows);
    }

    @Override
    public String toString()
    {
        return "inlined rows (" + rowCount + " rows, " + rows.length + " bytes)";
    }
}
