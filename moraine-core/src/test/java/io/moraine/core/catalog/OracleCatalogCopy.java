package io.moraine.core.catalog;

import io.moraine.core.row.Column;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.CommitListener;
import io.moraine.core.tx.StagedOperation;
import io.moraine.testing.DuckLakeOracle;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A moraine catalog holding every {@code ducklake_*} row of a real DuckLake lake as DuckDB wrote it (not its inlined
 * data): the core cannot use the importer (it lives in duckdb-shim), so the rows are read here the same way.
 */
final class OracleCatalogCopy
{
    private OracleCatalogCopy() {}

    static MoraineCatalog of(DuckLakeOracle oracle, StoreUri store)
            throws SQLException
    {
        List<StagedOperation> operations = new ArrayList<>();
        for (TableKind kind : TableKind.values()) {
            List<String> expressions = kind.columns().stream().map(OracleCatalogCopy::expression).toList();
            try (Statement statement = oracle.connection().createStatement();
                    ResultSet rows = statement.executeQuery("SELECT " + String.join(", ", expressions) + " FROM __ducklake_metadata_lake." + kind.tableName())) {
                while (rows.next()) {
                    Object[] values = new Object[expressions.size()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = cell(rows, i + 1, kind.columns().get(i));
                    }
                    operations.add(new StagedOperation.Insert(Row.of(kind, values)));
                }
            }
        }
        NewCatalog options = new NewCatalog(oracle.dataPath() + "/", false, false, NewCatalog.CREATED_BY);
        return MoraineCatalog.create(store, options, StoreOptions.DEFAULTS, operations, CommitListener.NONE);
    }

    private static String expression(Column column)
    {
        String name = "\"" + column.name() + "\"";
        return switch (column.type()) {
            case BIGINT -> "CAST(" + name + " AS BIGINT)";
            case VARCHAR -> "CAST(" + name + " AS VARCHAR)";
            case BOOLEAN -> "CAST(" + name + " AS BOOLEAN)";
            case TIMESTAMPTZ -> "epoch_us(CAST(" + name + " AS TIMESTAMPTZ))";
            case UUID -> "CAST(CAST(" + name + " AS UUID) AS VARCHAR)";
        };
    }

    private static Object cell(ResultSet rows, int index, Column column)
            throws SQLException
    {
        Object value = switch (column.type()) {
            case BIGINT, TIMESTAMPTZ -> rows.getLong(index);
            case VARCHAR, UUID -> rows.getString(index);
            case BOOLEAN -> rows.getBoolean(index);
        };
        if (rows.wasNull()) {
            return null;
        }
        return switch (column.type()) {
            case TIMESTAMPTZ -> Instant.EPOCH.plusNanos((Long) value * 1000);
            case UUID -> UUID.fromString((String) value);
            default -> value;
        };
    }
}
