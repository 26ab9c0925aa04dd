package io.moraine.duckdb.ext;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** A table whose rows the attach serves from the core: a ducklake_* table or one of DuckLake's inlined tables. */
interface ServedTable
{
    String name();

    /** Every column, in DuckLake's order, with the Arrow types DuckDB maps to DuckLake's column types. */
    Schema schema();

    /** The column a scan appends when DuckDB asks for row ids (DELETE and UPDATE address rows by them). */
    Field ROW_ID = Field.nullable("rowid", new ArrowType.Int(64, true));

    /**
     * A scan of the columns at {@code columns} (indexes into {@link #schema()}), in that order, followed by
     * {@link #ROW_ID} when {@code rowIds}; as {@code transaction} sees the table (null: as committed). Rows failing
     * {@code filter} may be left out.
     */
    BatchSource open(AttachTransaction transaction, int[] columns, boolean rowIds, ScanFilter filter, BufferAllocator allocator);

    /**
     * The exact range of BIGINT column {@code column} as {@code transaction} sees the table (null: as committed):
     * {@code {min, max, 1 if a row holds NULL there else 0}}; null when no row holds a value there, or when the table
     * keeps no range of it (the optimizer then scans).
     */
    default long[] bigintRange(AttachTransaction transaction, int column)
    {
        return null;
    }
}
