package io.moraine.spark;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.util.ArrayList;
import java.util.List;

/** Rows as text for comparisons: Spark's values joined by '|', and one statement's lines of a DuckDB process. */
final class TextRows
{
    private TextRows() {}

    /** Spark's rows of {@code sql}, each its values joined by '|', in Spark's order. */
    static List<String> of(SparkSession spark, String sql)
    {
        List<String> rows = new ArrayList<>();
        for (Row row : spark.sql(sql).collectAsList()) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < row.length(); i++) {
                values.add(String.valueOf(row.get(i)));
            }
            rows.add(String.join("|", values));
        }
        return rows;
    }

    /** The rows of statement {@code statement} among a DuckDB process's {@code ROW <statement> <values>} lines. */
    static List<String> ofStatement(List<String> lines, int statement)
    {
        String prefix = "ROW " + statement + " ";
        return lines.stream().filter(line -> line.startsWith(prefix)).map(line -> line.substring(prefix.length())).toList();
    }
}
