package io.moraine.spark;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The inlined rows of a partition as Arrow-backed batches, decoded from the stream the driver wrote. */
final class InlinedBatchReader
        implements PartitionReader<ColumnarBatch>
{
    private final BufferAllocator allocator;
    private final ArrowStreamReader reader;
    private ColumnarBatch batch;

    InlinedBatchReader(InlinedRowsPartition partition)
    {
        this.allocator = ArrowUtils.rootAllocator().newChildAllocator("moraine inlined rows", 0, Long.MAX_VALUE);
        this.reader = new ArrowStreamReader(new ByteArrayInputStream(partition.arrowStream()), allocator);
    }

    @Override
    public boolean next()
            throws IOException
    {
        if (!reader.loadNextBatch()) {
            return false;
        }
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        if (batch == null) {
            ColumnVector[] vectors = root.getFieldVectors().stream().map(ArrowColumnVector::new).toArray(ColumnVector[]::new);
            batch = new ColumnarBatch(vectors);
        }
        batch.setNumRows(root.getRowCount());
        return true;
    }

    @Override
    public ColumnarBatch get()
    {
        return batch;
    }

    @Override
    public void close()
    {
        try (allocator) {
            reader.close();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
