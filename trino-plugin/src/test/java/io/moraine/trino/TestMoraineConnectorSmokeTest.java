package io.moraine.trino;

import io.moraine.testing.DuckLakeOracle;
import io.trino.testing.BaseConnectorSmokeTest;
import io.trino.testing.QueryRunner;
import io.trino.testing.TestingConnectorBehavior;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trino's connector smoke test against the read-only moraine connector: the TPC-H tiny tables Trino's smoke test
 * needs, written by real DuckDB + DuckLake (nation as a Parquet data file, region inlined in the catalog), imported
 * into a moraine store and served by a coordinator and two workers.
 */
public class TestMoraineConnectorSmokeTest
        extends BaseConnectorSmokeTest
{
    private static final String SCHEMA = "tpch";

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-smoke");
        closeAfterClass(() -> deleteRecursively(directory, ALLOW_INSECURE));
        try (DuckLakeOracle oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE SCHEMA lake." + SCHEMA);
            // region (5 rows) stays inlined in the catalog; nation and anything larger goes to Parquet.
            oracle.execute("CALL lake.set_option('data_inlining_row_limit', 10)");
            copyTpchTable(oracle, TpchTable.REGION);
            oracle.execute("CALL lake.set_option('data_inlining_row_limit', 0)");
            for (TpchTable<?> table : REQUIRED_TPCH_TABLES) {
                if (table != TpchTable.REGION) {
                    copyTpchTable(oracle, table);
                }
            }
            assertThat(dataFiles(oracle, "region")).as("region's data files").isZero();
            assertThat(dataFiles(oracle, "nation")).as("nation's data files").isPositive();
            // The importer reads a copy of the catalog; the data files stay where DuckLake wrote them.
            return MoraineQueryRunner.create(oracle, directory, SCHEMA, 2);
        }
    }

    @Override
    protected boolean hasBehavior(TestingConnectorBehavior connectorBehavior)
    {
        return switch (connectorBehavior) {
            // Reads: DuckLake lists, structs and maps map to Trino arrays, rows and maps; dates before 1970 are
            // plain (negative) day counts.
            case SUPPORTS_ARRAY,
                 SUPPORTS_MAP_TYPE,
                 SUPPORTS_ROW_TYPE,
                 SUPPORTS_NEGATIVE_DATE -> true;

            // A data-file split uses the dynamic filter as it stands when the split opens (row groups and pages it
            // rules out are skipped), but neither the split manager nor the page source waits for it, so fewer rows
            // read is not guaranteed.
            case SUPPORTS_DYNAMIC_FILTER_PUSHDOWN -> false;

            // applyFilter keeps the predicate only to skip files by their statistics: Trino still filters every row,
            // so nothing is fully pushed down. No limit, top-N, aggregation, join or dereference pushdown.
            case SUPPORTS_PREDICATE_PUSHDOWN,
                 SUPPORTS_PREDICATE_PUSHDOWN_WITH_VARCHAR_EQUALITY,
                 SUPPORTS_PREDICATE_PUSHDOWN_WITH_VARCHAR_INEQUALITY,
                 SUPPORTS_PREDICATE_EXPRESSION_PUSHDOWN,
                 SUPPORTS_PREDICATE_ARITHMETIC_EXPRESSION_PUSHDOWN,
                 SUPPORTS_PREDICATE_EXPRESSION_PUSHDOWN_WITH_LIKE,
                 SUPPORTS_LIMIT_PUSHDOWN,
                 SUPPORTS_TOPN_PUSHDOWN,
                 SUPPORTS_TOPN_PUSHDOWN_WITH_VARCHAR,
                 SUPPORTS_AGGREGATION_PUSHDOWN,
                 SUPPORTS_AGGREGATION_PUSHDOWN_STDDEV,
                 SUPPORTS_AGGREGATION_PUSHDOWN_VARIANCE,
                 SUPPORTS_AGGREGATION_PUSHDOWN_COVARIANCE,
                 SUPPORTS_AGGREGATION_PUSHDOWN_CORRELATION,
                 SUPPORTS_AGGREGATION_PUSHDOWN_REGRESSION,
                 SUPPORTS_AGGREGATION_PUSHDOWN_COUNT_DISTINCT,
                 SUPPORTS_JOIN_PUSHDOWN,
                 SUPPORTS_JOIN_PUSHDOWN_WITH_FULL_JOIN,
                 SUPPORTS_JOIN_PUSHDOWN_WITH_DISTINCT_FROM,
                 SUPPORTS_JOIN_PUSHDOWN_WITH_VARCHAR_EQUALITY,
                 SUPPORTS_JOIN_PUSHDOWN_WITH_VARCHAR_INEQUALITY,
                 SUPPORTS_DEREFERENCE_PUSHDOWN -> false;

            // No query passthrough table function, and queries are not cancelled inside the connector.
            case SUPPORTS_NATIVE_QUERY,
                 SUPPORTS_CANCELLATION -> false;

            // Writes through the core's write API (docs/trino.md, "Writes").
            case SUPPORTS_INSERT,
                 SUPPORTS_CREATE_SCHEMA,
                 SUPPORTS_CREATE_TABLE,
                 SUPPORTS_CREATE_TABLE_WITH_DATA,
                 SUPPORTS_RENAME_TABLE,
                 SUPPORTS_ADD_COLUMN,
                 SUPPORTS_DROP_COLUMN,
                 SUPPORTS_RENAME_COLUMN,
                 SUPPORTS_SET_COLUMN_TYPE,
                 SUPPORTS_CREATE_TABLE_WITH_TABLE_COMMENT,
                 SUPPORTS_CREATE_TABLE_WITH_COLUMN_COMMENT,
                 SUPPORTS_COMMENT_ON_TABLE,
                 SUPPORTS_COMMENT_ON_COLUMN,
                 SUPPORTS_CREATE_VIEW -> true;

            // Row-level changes through Trino's merge (delete-row-and-insert-row), on inlined and file rows; TRUNCATE.
            case SUPPORTS_DELETE,
                 SUPPORTS_ROW_LEVEL_DELETE,
                 SUPPORTS_UPDATE,
                 SUPPORTS_ROW_LEVEL_UPDATE,
                 SUPPORTS_MERGE,
                 SUPPORTS_TRUNCATE -> true;

            // Not yet: view comments, nested-field DDL, column positions, NOT NULL and defaults.
            case SUPPORTS_RENAME_SCHEMA,
                 SUPPORTS_DROP_SCHEMA_CASCADE,
                 SUPPORTS_CREATE_OR_REPLACE_TABLE,
                 SUPPORTS_RENAME_TABLE_ACROSS_SCHEMAS,
                 SUPPORTS_ADD_COLUMN_WITH_COMMENT,
                 SUPPORTS_ADD_COLUMN_WITH_POSITION,
                 SUPPORTS_ADD_FIELD,
                 SUPPORTS_ADD_FIELD_IN_ARRAY,
                 SUPPORTS_DROP_FIELD,
                 SUPPORTS_DROP_FIELD_IN_ARRAY,
                 SUPPORTS_RENAME_FIELD,
                 SUPPORTS_SET_FIELD_TYPE,
                 SUPPORTS_SET_FIELD_TYPE_IN_ARRAY,
                 SUPPORTS_SET_FIELD_TYPE_IN_MAP,
                 SUPPORTS_COMMENT_ON_VIEW,
                 SUPPORTS_COMMENT_ON_VIEW_COLUMN,
                 SUPPORTS_REFRESH_VIEW,
                 SUPPORTS_CREATE_MATERIALIZED_VIEW,
                 SUPPORTS_CREATE_MATERIALIZED_VIEW_GRACE_PERIOD,
                 SUPPORTS_CREATE_MATERIALIZED_VIEW_WHEN_STALE,
                 SUPPORTS_CREATE_FEDERATED_MATERIALIZED_VIEW,
                 SUPPORTS_MATERIALIZED_VIEW_FRESHNESS_FROM_BASE_TABLES,
                 SUPPORTS_RENAME_MATERIALIZED_VIEW,
                 SUPPORTS_RENAME_MATERIALIZED_VIEW_ACROSS_SCHEMAS,
                 SUPPORTS_COMMENT_ON_MATERIALIZED_VIEW_COLUMN,
                 SUPPORTS_DEFAULT_COLUMN_VALUE,
                 SUPPORTS_SET_DEFAULT_COLUMN_VALUE,
                 SUPPORTS_DROP_DEFAULT_COLUMN_VALUE,
                 SUPPORTS_NOT_NULL_CONSTRAINT,
                 SUPPORTS_ADD_COLUMN_NOT_NULL_CONSTRAINT,
                 SUPPORTS_DROP_NOT_NULL_CONSTRAINT,
                 SUPPORTS_CREATE_FUNCTION,
                 SUPPORTS_MULTI_STATEMENT_WRITES,
                 SUPPORTS_REPORTING_WRITTEN_BYTES -> false;
        };
    }

    /** Every column of both tables, from the Parquet file (nation) and the inlined rows (region), equals TPC-H's. */
    @Test
    public void testSelectAllColumns()
    {
        assertQuery("SELECT * FROM nation");
        assertQuery("SELECT * FROM region");
        assertQuery("SELECT nationkey, comment FROM nation WHERE comment LIKE '%furiously%'");
    }

    /** DuckLake's varchar has no length: the columns read as unbounded varchar. */
    @Test
    public void testDescribe()
    {
        assertThat(computeActual("DESCRIBE nation").getMaterializedRows().stream().map(row -> row.getField(0) + " " + row.getField(1)).toList())
                .containsExactly("nationkey bigint", "name varchar", "regionkey bigint", "comment varchar");
    }

    /** Creates {@code lake.tpch.<table>} with the tiny schema's rows, in one INSERT (one DuckLake snapshot). */
    private static void copyTpchTable(DuckLakeOracle oracle, TpchTable<?> table)
            throws SQLException
    {
        String columns = table.getColumns().stream()
                .map(column -> column.getSimplifiedColumnName() + " " + duckDbType(column))
                .collect(Collectors.joining(", "));
        String name = "lake." + SCHEMA + "." + table.getTableName();
        oracle.execute("CREATE TABLE " + name + " (" + columns + ")");
        oracle.execute("INSERT INTO " + name + " VALUES " + String.join(", ", rows(table)));
    }

    private static <E extends TpchEntity> List<String> rows(TpchTable<E> table)
    {
        List<String> rows = new ArrayList<>();
        for (E row : table.createGenerator(0.01, 1, 1)) {
            rows.add(table.getColumns().stream().map(column -> literal(column, row)).collect(Collectors.joining(", ", "(", ")")));
        }
        return rows;
    }

    /** The DuckDB type of a TPC-H column: Trino's tpch connector types, with DuckLake's unbounded varchar. */
    private static String duckDbType(TpchColumn<?> column)
    {
        return switch (column.getType().getBase()) {
            case IDENTIFIER -> "BIGINT";
            case INTEGER -> "INTEGER";
            case DOUBLE -> "DOUBLE";
            case DATE -> "DATE";
            case VARCHAR -> "VARCHAR";
        };
    }

    private static <E extends TpchEntity> String literal(TpchColumn<E> column, E row)
    {
        return switch (column.getType().getBase()) {
            case IDENTIFIER -> Long.toString(column.getIdentifier(row));
            case INTEGER -> Integer.toString(column.getInteger(row));
            case DOUBLE -> "CAST('" + column.getDouble(row) + "' AS DOUBLE)";
            case DATE -> "DATE '" + LocalDate.ofEpochDay(column.getDate(row)) + "'";
            case VARCHAR -> "'" + column.getString(row).replace("'", "''") + "'";
        };
    }

    private static long dataFiles(DuckLakeOracle oracle, String table)
            throws SQLException
    {
        return Long.parseLong(oracle.query("SELECT count(*) FROM __ducklake_metadata_lake.ducklake_data_file f "
                + "JOIN __ducklake_metadata_lake.ducklake_table t USING (table_id) WHERE t.table_name = '" + table + "'").getFirst().getFirst());
    }
}
