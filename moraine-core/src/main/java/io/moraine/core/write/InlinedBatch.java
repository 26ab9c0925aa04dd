package io.moraine.core.write;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Rows an engine inserts into the catalog instead of a data file: the table's columns in its inlined Arrow form. The
 * engine keeps the batch open until the transaction commits or rolls back (a retried commit encodes it again with the
 * row ids of the head it lands on).
 */
record InlinedBatch(VectorSchemaRoot rows)
{
}
