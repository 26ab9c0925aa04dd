package io.moraine.core.inline.read;

import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which of DuckLake's inlined tables a store holds: {@code ducklake_inlined_data_<t>_<v>} for every registered schema
 * version not deregistered by a flush, and {@code ducklake_inlined_delete_<t>} for every table whose inlined file
 * deletes table exists (it stays, emptied, after a flush).
 */
public final class InlinedTables
{
    public record DataTable(long tableId, long schemaVersion)
    {
        public String tableName()
        {
            return "ducklake_inlined_data_" + tableId + "_" + schemaVersion;
        }
    }

    public record DeleteTable(long tableId)
    {
        public String tableName()
        {
            return "ducklake_inlined_delete_" + tableId;
        }
    }

    private InlinedTables() {}

    public static List<DataTable> dataTables(KeyValueReader reader)
    {
        Set<DataTable> dropped = new HashSet<>();
        forEach(reader, InlineKeys.SCHEMA_DROPPED, entry -> dropped.add(dataTable(entry)));
        List<DataTable> tables = new ArrayList<>();
        forEach(reader, InlineKeys.SCHEMA, entry -> {
            DataTable table = dataTable(entry);
            if (!dropped.contains(table)) {
                tables.add(table);
            }
        });
        return tables;
    }

    public static List<DeleteTable> deleteTables(KeyValueReader reader)
    {
        List<DeleteTable> tables = new ArrayList<>();
        forEach(reader, InlineKeys.FILE_DELETE_TABLE, entry -> tables.add(new DeleteTable(InlineKeys.component(entry.key(), 0))));
        return tables;
    }

    /** The user columns an inlined table was registered with, as Arrow fields. */
    public static Schema userSchema(KeyValueReader reader, DataTable table)
    {
        return InlineDirectory.load(reader, table.tableId(), false).schema(table.schemaVersion());
    }

    private static DataTable dataTable(KeyValue entry)
    {
        return new DataTable(InlineKeys.component(entry.key(), 0), InlineKeys.component(entry.key(), 1));
    }

    private static void forEach(KeyValueReader reader, byte kind, java.util.function.Consumer<KeyValue> consumer)
    {
        byte[] prefix = InlineKeys.kindPrefix(kind);
        try (KeyValueCursor cursor = reader.scan(prefix, KeyWriter.prefixEnd(prefix), 1024)) {
            cursor.forEachRemaining(consumer);
        }
    }
}
