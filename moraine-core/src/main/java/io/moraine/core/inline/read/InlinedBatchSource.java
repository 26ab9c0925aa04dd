package io.moraine.core.inline.read;

/**
 * Batches of inlined rows, each with its read columns found by column id ({@link InlinedRowsReader.Batch}): read from
 * the store ({@link InlinedRowsReader}) or from a piece shipped to a reader without one ({@link InlinedPieceReader}).
 */
public interface InlinedBatchSource
        extends AutoCloseable
{
    boolean hasNext();

    /** The next batch; its vectors are valid until the following call or {@link #close()}. */
    InlinedRowsReader.Batch next();

    /** Bytes of rows held now. */
    long residentBytes();

    @Override
    void close();
}
