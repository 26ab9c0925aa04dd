package io.moraine.spark;

import io.moraine.core.inline.InlineArrow;
import io.moraine.core.types.DuckLakeValues;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A string column over the binary Spark's Parquet reader reads a uuid or interval column as: a uuid's 16 big-endian
 * bytes as its canonical text, a Parquet INTERVAL's 12 bytes as DuckDB prints it. Structs holding such fields are
 * wrapped field by field ({@link #wrap}).
 */
final class ConvertedColumnVector
        extends ColumnVector
{
    enum Conversion
    {
        NONE, UUID_TEXT, INTERVAL_TEXT, STRUCT
    }

    private final ColumnVector delegate;
    private final Conversion conversion;
    private final ColumnVector[] children;

    private ConvertedColumnVector(DataType type, ColumnVector delegate, Conversion conversion, ColumnVector[] children)
    {
        super(type);
        this.delegate = delegate;
        this.conversion = conversion;
        this.children = children;
    }

    /** {@code delegate} as a vector of {@code column}'s logical type; the delegate itself when nothing converts. */
    static ColumnVector wrap(ReadColumn column, ColumnVector delegate)
    {
        return switch (column.conversion()) {
            case NONE -> delegate;
            case UUID_TEXT, INTERVAL_TEXT -> new ConvertedColumnVector(column.logicalType(), delegate, column.conversion(), null);
            case STRUCT -> {
                ColumnVector[] children = new ColumnVector[column.fields().size()];
                for (int i = 0; i < children.length; i++) {
                    children[i] = wrap(column.fields().get(i), delegate.getChild(i));
                }
                yield new ConvertedColumnVector(column.logicalType(), delegate, Conversion.STRUCT, children);
            }
        };
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
        return delegate.numNulls();
    }

    @Override
    public boolean isNullAt(int rowId)
    {
        return delegate.isNullAt(rowId);
    }

    @Override
    public UTF8String getUTF8String(int rowId)
    {
        byte[] bytes = delegate.getBinary(rowId);
        return switch (conversion) {
            case UUID_TEXT -> UTF8String.fromString(InlineArrow.uuid(bytes).toString());
            case INTERVAL_TEXT -> UTF8String.fromString(DuckLakeValues.parquetIntervalText(bytes));
            default -> throw new UnsupportedOperationException("not a string column");
        };
    }

    @Override
    public ColumnVector getChild(int ordinal)
    {
        return children[ordinal];
    }

    @Override
    public boolean getBoolean(int rowId)
    {
        throw unsupported();
    }

    @Override
    public byte getByte(int rowId)
    {
        throw unsupported();
    }

    @Override
    public short getShort(int rowId)
    {
        throw unsupported();
    }

    @Override
    public int getInt(int rowId)
    {
        throw unsupported();
    }

    @Override
    public long getLong(int rowId)
    {
        throw unsupported();
    }

    @Override
    public float getFloat(int rowId)
    {
        throw unsupported();
    }

    @Override
    public double getDouble(int rowId)
    {
        throw unsupported();
    }

    @Override
    public ColumnarArray getArray(int rowId)
    {
        throw unsupported();
    }

    @Override
    public ColumnarMap getMap(int ordinal)
    {
        throw unsupported();
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale)
    {
        throw unsupported();
    }

    @Override
    public byte[] getBinary(int rowId)
    {
        throw unsupported();
    }

    private UnsupportedOperationException unsupported()
    {
        return new UnsupportedOperationException("a converted " + conversion + " column of type " + dataType() + " has no such value");
    }
}
