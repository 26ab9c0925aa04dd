package io.moraine.trino;

import io.moraine.core.scan.HiddenColumn;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.ColumnIO;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.PrimitiveColumnIO;
import org.apache.parquet.schema.LogicalTypeAnnotation;

import java.util.HashMap;
import java.util.Map;

import static io.trino.parquet.ParquetTypeUtils.lookupColumnById;

/**
 * The part of a query's predicate Trino's Parquet reader can test against one file's row-group statistics, column
 * indexes and dictionaries: domains of top-level primitive columns, found by field id, whose Trino type reads the
 * Parquet type directly (unsigned integers, widened on read, are left out).
 */
final class ParquetPredicates
{
    private ParquetPredicates() {}

    static TupleDomain<ColumnDescriptor> forFile(TupleDomain<MoraineColumnHandle> predicate, MessageColumnIO fileColumns)
    {
        if (predicate.isNone()) {
            return TupleDomain.none();
        }
        Map<ColumnDescriptor, Domain> domains = new HashMap<>();
        predicate.getDomains().orElseThrow().forEach((column, domain) -> {
            // An interval is read as text its Parquet statistics do not describe; nested fields are left to Trino.
            // Of the hidden columns only $row_id and $snapshot_id are file columns (when the file embeds them).
            boolean computed = column.hiddenColumn().filter(hidden -> hidden != HiddenColumn.ROW_ID && hidden != HiddenColumn.SNAPSHOT_ID).isPresent();
            if (computed || !testable(column.type()) || column.isInterval() || column.isDereference()) {
                return;
            }
            ColumnIO io = lookupColumnById(fileColumns, (int) column.columnId());
            if (io instanceof PrimitiveColumnIO primitive && io.getParent() == fileColumns && !unsigned(primitive)) {
                domains.put(primitive.getColumnDescriptor(), domain);
            }
        });
        return TupleDomain.withColumnDomains(domains);
    }

    private static boolean testable(Type type)
    {
        return type instanceof BooleanType || type instanceof TinyintType || type instanceof SmallintType || type instanceof IntegerType
                || type instanceof BigintType || type instanceof RealType || type instanceof DoubleType || type instanceof VarcharType
                || type instanceof DateType || type instanceof DecimalType || type instanceof TimestampType;
    }

    private static boolean unsigned(PrimitiveColumnIO column)
    {
        return column.getType().getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer && !integer.isSigned();
    }
}
