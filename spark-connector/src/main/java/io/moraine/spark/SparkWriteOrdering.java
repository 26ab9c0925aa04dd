package io.moraine.spark;

import io.moraine.core.catalog.PartitionTransform;
import io.moraine.core.write.files.WriteOrdering;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.FieldReference;
import org.apache.spark.sql.connector.expressions.LogicalExpressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.NullOrdering;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;

/**
 * The core's {@link WriteOrdering} of a table as Spark's required distribution and ordering of a write: clustered by
 * the partition keys (an identity key by its column, any other through the catalog's {@link PartitionKeyFunction}),
 * each task's rows sorted by the keys and then the table's sort order. Spark then hands each task whole partitions in
 * order, so a task writes one file per partition (DuckLake's layout) instead of one per partition it meets.
 */
record SparkWriteOrdering(Distribution distribution, SortOrder[] ordering)
{
    static final SparkWriteOrdering NONE = new SparkWriteOrdering(Distributions.unspecified(), new SortOrder[0]);

    static SparkWriteOrdering of(WriteOrdering ordering)
    {
        if (ordering.isEmpty()) {
            return NONE;
        }
        Distribution distribution = ordering.clustering().isEmpty()
                ? Distributions.unspecified()
                : Distributions.clustered(ordering.clustering().stream().map(SparkWriteOrdering::expression).toArray(Expression[]::new));
        SortOrder[] sort = ordering.ordering().stream().map(key -> switch (key) {
            case WriteOrdering.PartitionKey partition -> Expressions.sort(expression(partition), SortDirection.ASCENDING, NullOrdering.NULLS_FIRST);
            case WriteOrdering.ColumnKey column -> Expressions.sort(FieldReference.column(column.column()),
                    column.descending() ? SortDirection.DESCENDING : SortDirection.ASCENDING, column.nullsFirst() ? NullOrdering.NULLS_FIRST : NullOrdering.NULLS_LAST);
        }).toArray(SortOrder[]::new);
        return new SparkWriteOrdering(distribution, sort);
    }

    private static Expression expression(WriteOrdering.PartitionKey key)
    {
        NamedReference column = FieldReference.column(key.column());
        if (key.transform().kind() == PartitionTransform.Kind.IDENTITY) {
            return LogicalExpressions.identity(column);
        }
        return Expressions.apply(PartitionKeyFunction.NAME, Expressions.literal(key.transform().text()), Expressions.literal(key.columnType()), column);
    }
}
