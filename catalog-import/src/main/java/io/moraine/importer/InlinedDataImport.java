package io.moraine.importer;

import io.moraine.core.inline.ArrowHugeint;
import io.moraine.core.inline.ParquetVariant;
import io.moraine.core.tx.InlineOperation;
import io.moraine.core.tx.InlinedInsertChunks;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBResultSet;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads DuckLake's inlined tables from a source catalog through DuckDB's Arrow export and turns them into inline
 * operations: per {@code ducklake_inlined_data_<t>_<v>} a schema registration, insert chunks (runs of consecutive row
 * ids inserted at the same snapshot) and deletion events; per {@code ducklake_inlined_delete_<t>} inlined file deletes.
 */
final class InlinedDataImport
{
    private static final int ARROW_BATCH_ROWS = 4096;

    private final Connection connection;
    private final BufferAllocator allocator = new RootAllocator();

    InlinedDataImport(Connection connection)
    {
        this.connection = connection;
    }

    /**
     * The operations that recreate {@code qualifiedTable} (a ducklake_inlined_data table of {@code tableId}, version
     * {@code schemaVersion}); {@code userColumnTypes} casts the user columns to their DuckDB types (SQLite and
     * PostgreSQL catalogs store some as text), or is empty to take them as stored.
     */
    List<InlineOperation> dataTable(long tableId, long schemaVersion, String qualifiedTable, List<String> userColumnCasts)
            throws SQLException
    {
        List<InlineOperation> operations = new ArrayList<>();
        String userColumns = String.join(", ", userColumnCasts);
        String select = "SELECT row_id, begin_snapshot, end_snapshot" + (userColumns.isEmpty() ? "" : ", " + userColumns)
                + " FROM " + qualifiedTable;
        Map<String, String> columnTypes = VariantExport.columnTypes(connection, select);
        Set<String> variants = VariantExport.variantColumns(qualifiedTable, columnTypes);
        if (!variants.isEmpty()) {
            select = VariantExport.exportable(select, columnTypes, variants);
        }
        Schema lossless = columnTypes.values().stream().anyMatch(type -> type.contains("HUGEINT")) ? losslessSchema(select) : null;
        select += " ORDER BY begin_snapshot, row_id";
        List<long[]> ends = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery(select);
                ArrowReader reader = (ArrowReader) resultSet.unwrap(DuckDBResultSet.class).arrowExportStream(allocator, ARROW_BATCH_ROWS)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            List<Field> fields = root.getSchema().getFields();
            List<Field> userFields = new ArrayList<>();
            for (int i = 3; i < fields.size(); i++) {
                Field field = fields.get(i);
                userFields.add(variants.contains(field.getName()) ? ParquetVariant.field(field.getName(), true)
                        : lossless == null ? field : withHugeints(field, lossless.getFields().get(i)));
            }
            Schema userSchema = new Schema(userFields);
            operations.add(new InlineOperation.RegisterSchema(tableId, schemaVersion, userSchema));
            while (reader.loadNextBatch()) {
                InlinedInsertChunks.cut(tableId, schemaVersion, root, userFields, operations::add, (rowId, end) -> ends.add(new long[] {rowId, end}));
            }
        }
        catch (IOException e) {
            throw new SQLException("reading " + qualifiedTable + " as Arrow failed: " + e.getMessage(), e);
        }
        for (long[] end : ends) {
            operations.add(new InlineOperation.EndRows(tableId, List.of(end[0]), end[1]));
        }
        return operations;
    }

    /**
     * The query's result columns as DuckDB's lossless Arrow export types them, where HUGEINT and UHUGEINT are 16-byte
     * binaries named by DuckDB's arrow.opaque extension rather than DECIMAL(38,0) (ArrowHugeint). Only the schema is
     * read: the rows are exported with the default settings, which keep every other type as before.
     */
    private Schema losslessSchema(String select)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET arrow_lossless_conversion = true");
            try (ResultSet resultSet = statement.executeQuery("SELECT * FROM (" + select + ") LIMIT 0");
                    ArrowReader reader = (ArrowReader) resultSet.unwrap(DuckDBResultSet.class).arrowExportStream(allocator, ARROW_BATCH_ROWS)) {
                return reader.getVectorSchemaRoot().getSchema();
            }
            catch (IOException e) {
                throw new SQLException("reading the Arrow schema of " + select + " failed: " + e.getMessage(), e);
            }
            finally {
                statement.execute("RESET arrow_lossless_conversion");
            }
        }
    }

    /**
     * {@code field} (DuckDB's default export, where HUGEINT and UHUGEINT are DECIMAL(38,0) with the same 16 data bytes)
     * with every HUGEINT and UHUGEINT, nested ones included, in the lossless form {@code lossless} shows.
     */
    static Field withHugeints(Field field, Field lossless)
    {
        java.util.Optional<ArrowHugeint.Kind> kind = ArrowHugeint.kind(lossless);
        if (kind.isPresent() && field.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.Decimal) {
            return ArrowHugeint.field(field.getName(), field.isNullable(), kind.get());
        }
        if (field.getChildren().isEmpty() || field.getChildren().size() != lossless.getChildren().size()) {
            return field;
        }
        List<Field> children = new ArrayList<>();
        for (int i = 0; i < field.getChildren().size(); i++) {
            children.add(withHugeints(field.getChildren().get(i), lossless.getChildren().get(i)));
        }
        return new Field(field.getName(), field.getFieldType(), children);
    }

    /** The operations that recreate {@code ducklake_inlined_delete_<t>}: one group per (file, begin_snapshot). */
    List<InlineOperation> deleteTable(long tableId, String qualifiedTable)
            throws SQLException
    {
        List<InlineOperation> operations = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery("SELECT CAST(file_id AS BIGINT), CAST(begin_snapshot AS BIGINT), "
                        + "list(CAST(row_id AS BIGINT) ORDER BY row_id) FROM " + qualifiedTable + " GROUP BY ALL ORDER BY ALL")) {
            while (resultSet.next()) {
                List<Long> positions = new ArrayList<>();
                for (Object position : (Object[]) resultSet.getArray(3).getArray()) {
                    positions.add(((Number) position).longValue());
                }
                operations.add(new InlineOperation.DeleteFileRows(tableId, resultSet.getLong(1), positions, resultSet.getLong(2)));
            }
        }
        if (operations.isEmpty()) {
            // The table exists (DuckLake probes it), even when empty: keep its marker.
            operations.add(new InlineOperation.DeleteFileRows(tableId, -1, List.of(), 0));
        }
        return operations;
    }

    static List<Field> userFields(Schema schema)
    {
        return schema.getFields().subList(3, schema.getFields().size());
    }
}
