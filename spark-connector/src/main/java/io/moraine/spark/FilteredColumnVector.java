package io.moraine.spark;

import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The surviving rows of a batch's column without copying: row {@code i} is the delegate's row {@code rows[i]}. Struct
 * children are wrapped the same way; list and map values are the delegate's. The delegate belongs to the Parquet
 * reader, which reuses it for the next batch, so closing this closes nothing.
 */
final class FilteredColumnVector
        extends ColumnVector
{
    private final ColumnVector delegate;
    private final int[] rows;
    private final int count;
    private final FilteredColumnVector[] children;

    FilteredColumnVector(ColumnVector delegate, int[] rows, int count)
    {
        super(delegate.dataType());
        this.delegate = delegate;
        this.rows = rows;
        this.count = count;
        int childCount = delegate.dataType() instanceof org.apache.spark.sql.types.StructType struct ? struct.fields().length : 0;
        this.children = new FilteredColumnVector[childCount];
    }

    @Override
    public void close() {}

    @Override
    public void closeIfFreeable() {}

    @Override
    public boolean hasNull()
    {
        return delegate.hasNull();
    }

    @Override
    public int numNulls()
    {
        if (!delegate.hasNull()) {
            return 0;
        }
        int nulls = 0;
        for (int i = 0; i < count; i++) {
            if (delegate.isNullAt(rows[i])) {
                nulls++;
            }
        }
        return nulls;
    }

    @Override
    public boolean isNullAt(int rowId)
    {
        return delegate.isNullAt(rows[rowId]);
    }

    @Override
    public boolean getBoolean(int rowId)
    {
        return delegate.getBoolean(rows[rowId]);
    }

    @Override
    public byte getByte(int rowId)
    {
        return delegate.getByte(rows[rowId]);
    }

    @Override
    public short getShort(int rowId)
    {
        return delegate.getShort(rows[rowId]);
    }

    @Override
    public int getInt(int rowId)
    {
        return delegate.getInt(rows[rowId]);
    }

    @Override
    public long getLong(int rowId)
    {
        return delegate.getLong(rows[rowId]);
    }

    @Override
    public float getFloat(int rowId)
    {
        return delegate.getFloat(rows[rowId]);
    }

    @Override
    public double getDouble(int rowId)
    {
        return delegate.getDouble(rows[rowId]);
    }

    @Override
    public ColumnarArray getArray(int rowId)
    {
        return delegate.getArray(rows[rowId]);
    }

    @Override
    public ColumnarMap getMap(int ordinal)
    {
        return delegate.getMap(rows[ordinal]);
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale)
    {
        return delegate.getDecimal(rows[rowId], precision, scale);
    }

    @Override
    public UTF8String getUTF8String(int rowId)
    {
        return delegate.getUTF8String(rows[rowId]);
    }

    @Override
    public byte[] getBinary(int rowId)
    {
        return delegate.getBinary(rows[rowId]);
    }

    @Override
    public ColumnVector getChild(int ordinal)
    {
        if (children[ordinal] == null) {
            children[ordinal] = new FilteredColumnVector(delegate.getChild(ordinal), rows, count);
        }
        return children[ordinal];
    }
}
