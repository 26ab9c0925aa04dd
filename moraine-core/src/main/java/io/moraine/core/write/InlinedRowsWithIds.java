package io.moraine.core.write;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Rows an update re-inserts into the catalog with the row ids they had ({@code rowIds[i]} is row i's), as DuckLake
 * inlines a small UPDATE's new versions; the engine keeps the batch open until the transaction ends.
 */
record InlinedRowsWithIds(VectorSchemaRoot rows, long[] rowIds)
{
}
