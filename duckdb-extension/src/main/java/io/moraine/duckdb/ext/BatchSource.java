package io.moraine.duckdb.ext;

import org.apache.arrow.vector.VectorSchemaRoot;

/** The batches of one scan, projected; each batch is valid until the next call. */
interface BatchSource
        extends AutoCloseable
{
    /** The next batch, or null at the end. */
    VectorSchemaRoot next();

    @Override
    void close();
}
