package io.moraine.duckdb.ext;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/** A table whose rows the attach serves from the core: a ducklake_* table or one of DuckLake's inlined tables. */
interface ServedTable
{
    String name();

    /** Every column, in DuckLake's order, with the Arrow types DuckDB maps to DuckLake's column types. */
    Schema schema();

    /** A scan of the columns at {@code columns} (indexes into {@link #schema()}), in that order. */
    BatchSource open(int[] columns, BufferAllocator allocator);
}
