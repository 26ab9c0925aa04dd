package io.moraine.spark;

import io.moraine.testing.CanonicalText;
import io.moraine.testing.LakeColumn;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Spark's rows in {@link CanonicalText}: Java time values (the session reads them with the Java 8 API), Scala
 * sequences and maps as Java lists and maps, structs by their field names, and uuid columns (strings in Spark) as UUIDs.
 */
final class SparkCanonicalRows
{
    private SparkCanonicalRows() {}

    static List<List<String>> of(List<Row> rows, List<LakeColumn> columns)
    {
        List<List<String>> canonical = new ArrayList<>(rows.size());
        for (Row row : rows) {
            List<String> cells = new ArrayList<>(columns.size());
            for (int i = 0; i < columns.size(); i++) {
                Object value = plain(row.get(i));
                if (value instanceof String text && columns.get(i).duckdbType().equals("UUID")) {
                    value = UUID.fromString(text);
                }
                cells.add(CanonicalText.of(value));
            }
            canonical.add(cells);
        }
        return canonical;
    }

    static Object plain(Object value)
    {
        return switch (value) {
            case null -> null;
            case Row struct -> {
                StructType schema = struct.schema();
                Map<String, Object> fields = new LinkedHashMap<>();
                for (int i = 0; i < struct.length(); i++) {
                    fields.put(schema.fields()[i].name(), plain(struct.get(i)));
                }
                yield new CanonicalText.Struct(fields);
            }
            case scala.collection.Map<?, ?> map -> {
                Map<Object, Object> entries = new LinkedHashMap<>();
                CollectionConverters.asJava(map).forEach((key, entry) -> entries.put(plain(key), plain(entry)));
                yield entries;
            }
            case scala.collection.Seq<?> seq -> CollectionConverters.asJava(seq).stream().map(SparkCanonicalRows::plain).toList();
            default -> value;
        };
    }
}
