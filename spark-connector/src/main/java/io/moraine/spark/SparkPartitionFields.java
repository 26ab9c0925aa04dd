package io.moraine.spark;

import io.moraine.core.write.PartitionField;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.Transform;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Spark's {@code PARTITIONED BY} transforms as DuckLake partition keys. DuckLake's {@code year}, {@code month},
 * {@code day} and {@code hour} are calendar fields (month 1..12), not Iceberg's counts since the epoch, so Spark's
 * {@code months(d)} becomes the keys {@code year(d), month(d)}, {@code days(d)} adds {@code day(d)} and {@code hours(d)}
 * {@code hour(d)}: the same partitions, named by their calendar fields. {@code bucket(n, c)} is DuckLake's
 * Iceberg-compatible bucket. Anything else is refused.
 */
final class SparkPartitionFields
{
    private SparkPartitionFields() {}

    static List<PartitionField> of(Transform[] transforms, String table)
    {
        Set<PartitionField> keys = new LinkedHashSet<>();
        for (Transform transform : transforms) {
            String name = transform.name();
            switch (name) {
                case "identity" -> keys.add(PartitionField.identity(column(transform, table)));
                case "years", "year" -> keys.addAll(calendar(column(transform, table), 1));
                case "months", "month" -> keys.addAll(calendar(column(transform, table), 2));
                case "days", "day" -> keys.addAll(calendar(column(transform, table), 3));
                case "hours", "hour" -> keys.addAll(calendar(column(transform, table), 4));
                case "bucket" -> keys.add(bucket(transform, table));
                default -> throw SparkErrors.unsupported("PARTITIONED BY " + transform.describe() + " on " + table + " has no DuckLake partition transform; "
                        + "use a column, years(c), months(c), days(c), hours(c) or bucket(n, c)");
            }
        }
        return List.copyOf(keys);
    }

    private static List<PartitionField> calendar(String column, int fields)
    {
        List<PartitionField> keys = new ArrayList<>();
        List<String> names = List.of("year", "month", "day", "hour");
        for (int i = 0; i < fields; i++) {
            keys.add(PartitionField.of(column, names.get(i)));
        }
        return keys;
    }

    private static PartitionField bucket(Transform transform, String table)
    {
        Expression[] arguments = transform.arguments();
        if (arguments.length != 2 || !(arguments[0] instanceof Literal<?> count) || !(count.value() instanceof Number buckets)
                || !(arguments[1] instanceof NamedReference)) {
            throw SparkErrors.unsupported("PARTITIONED BY " + transform.describe() + " on " + table + ": DuckLake buckets one column, written bucket(n, column)");
        }
        if (buckets.intValue() <= 0) {
            throw SparkErrors.unsupported("PARTITIONED BY " + transform.describe() + " on " + table + " needs a positive number of buckets");
        }
        return PartitionField.of(column(transform, table), "bucket(" + buckets.intValue() + ")");
    }

    private static String column(Transform transform, String table)
    {
        NamedReference[] references = transform.references();
        if (references.length != 1 || references[0].fieldNames().length != 1) {
            throw SparkErrors.unsupported("PARTITIONED BY " + transform.describe() + " on " + table + ": DuckLake partitions by one top-level column per key");
        }
        return references[0].fieldNames()[0];
    }
}
