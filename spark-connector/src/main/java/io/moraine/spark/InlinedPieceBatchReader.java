package io.moraine.spark;

import io.moraine.core.error.MoraineException;
import io.moraine.core.inline.read.InlinedPieceReader;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import java.util.List;

/**
 * The inlined rows of an {@link InlinedPiecePartition} as Arrow-backed batches in the scan's output schema: each batch
 * of the piece converted row by row ({@link InlinedRowsEncoder#write}) into one Arrow root, reused batch after batch.
 */
final class InlinedPieceBatchReader
        implements PartitionReader<ColumnarBatch>
{
    private final BufferAllocator allocator;
    private final InlinedPieceReader piece;
    private final List<TableColumn> columns;
    private final InlinedPiecePartition partition;
    private final VectorSchemaRoot root;
    private final ArrowWriter writer;
    private final ColumnarBatch batch;

    InlinedPieceBatchReader(InlinedPiecePartition partition)
    {
        this.partition = partition;
        this.allocator = ArrowUtils.rootAllocator().newChildAllocator("moraine inlined rows", 0, Long.MAX_VALUE);
        try {
            this.piece = InlinedPieceReader.open(partition.piece(), allocator);
        }
        catch (MoraineException e) {
            allocator.close();
            throw SparkErrors.of(e);
        }
        this.columns = piece.columns();
        this.root = VectorSchemaRoot.create(ArrowUtils.toArrowSchema(partition.output(), "UTC", true, false), allocator);
        this.writer = ArrowWriter.create(root);
        this.batch = new ColumnarBatch(root.getFieldVectors().stream().map(ArrowColumnVector::new).toArray(ColumnVector[]::new));
    }

    @Override
    public boolean next()
    {
        try {
            if (!piece.hasNext()) {
                return false;
            }
            writer.reset();
            InlinedRowsEncoder.write(piece.next(), columns, partition.output(), InlinedRowsEncoder.SCAN_METADATA, writer);
            writer.finish();
            batch.setNumRows(root.getRowCount());
            return true;
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
    }

    @Override
    public ColumnarBatch get()
    {
        return batch;
    }

    @Override
    public void close()
    {
        try (allocator; piece; root) {
            // the output's vectors and the piece's, then the allocator
        }
    }
}
