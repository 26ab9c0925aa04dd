package io.moraine.inline.flush;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.RowScope;
import io.moraine.core.catalog.TableKind;

/** The {@code ducklake_metadata} options a flush obeys, resolved table scope first, then schema, then global (reference §2.1). */
final class FlushOptions
{
    private FlushOptions() {}

    /** {@code hive_file_pattern}: whether partitioned files go under {@code key=value/} directories; DuckLake's default is true. */
    static boolean hiveFilePattern(MoraineCatalog catalog, long schemaId, long tableId)
    {
        String global = null;
        String schema = null;
        String table = null;
        try (var rows = catalog.scan(TableKind.METADATA, RowScope.CURRENT)) {
            while (rows.hasNext()) {
                Row row = rows.next();
                if (!"hive_file_pattern".equals(row.getString("key"))) {
                    continue;
                }
                String scope = row.getString("scope");
                if (scope == null) {
                    global = row.getString("value");
                }
                else if (scope.equals("schema") && row.getLong("scope_id") == schemaId) {
                    schema = row.getString("value");
                }
                else if (scope.equals("table") && row.getLong("scope_id") == tableId) {
                    table = row.getString("value");
                }
            }
        }
        String value = table != null ? table : schema != null ? schema : global;
        return value == null || value.equalsIgnoreCase("true");
    }
}
