package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.write.ColumnDefinition;
import io.moraine.core.write.LakeOptions;
import io.moraine.core.write.NewTable;
import io.moraine.core.write.PartitionField;
import io.moraine.core.write.SortField;
import io.moraine.core.write.WriteTransaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DDL through the core's write API writes the catalog rows DuckDB+DuckLake writes for the same statements: each step
 * runs as SQL on a DuckDB-file catalog and as one write transaction on a moraine store, and the metadata tables compare
 * equal (uuids and times left out), then DuckDB reads and keeps writing the moraine lake.
 */
class CoreWriteDdlTest
{
    private record Step(String sql, Consumer<WriteTransaction> core) {}

    private static final List<Step> STEPS = List.of(
            new Step("CREATE SCHEMA s", tx -> tx.createSchema("s")),
            new Step("CREATE TABLE s.t (a INTEGER NOT NULL, b VARCHAR DEFAULT 'x', st STRUCT(x INTEGER, y VARCHAR[]), m MAP(VARCHAR, BIGINT))",
                    tx -> tx.createTable(NewTable.of("s", "t", List.of(
                            ColumnDefinition.of("a", "int32").notNull(),
                            ColumnDefinition.of("b", "varchar").withDefault("x"),
                            ColumnDefinition.struct("st", List.of(ColumnDefinition.of("x", "int32"), ColumnDefinition.list("y", ColumnDefinition.of("element", "varchar")))),
                            ColumnDefinition.map("m", ColumnDefinition.of("key", "varchar"), ColumnDefinition.of("value", "int64")))))),
            new Step("ALTER TABLE s.t ADD COLUMN c DOUBLE", tx -> tx.addColumn("s", "t", ColumnDefinition.of("c", "float64"))),
            new Step("ALTER TABLE s.t ADD COLUMN st.z BIGINT", tx -> tx.addColumn("s", "t", List.of("st"), ColumnDefinition.of("z", "int64").notNull())),
            new Step("ALTER TABLE s.t DROP COLUMN st.x", tx -> tx.dropColumn("s", "t", List.of("st", "x"))),
            new Step("ALTER TABLE s.t RENAME COLUMN b TO bb", tx -> tx.renameColumn("s", "t", List.of("b"), "bb")),
            new Step("ALTER TABLE s.t ALTER COLUMN a TYPE BIGINT", tx -> tx.setColumnType("s", "t", List.of("a"), "int64")),
            new Step("ALTER TABLE s.t ALTER COLUMN bb SET DEFAULT 'y'", tx -> tx.setColumnDefault("s", "t", List.of("bb"), "y")),
            new Step("ALTER TABLE s.t ALTER COLUMN bb DROP DEFAULT", tx -> tx.setColumnDefault("s", "t", List.of("bb"), null)),
            new Step("ALTER TABLE s.t ALTER COLUMN a DROP NOT NULL", tx -> tx.setColumnNullable("s", "t", List.of("a"), true)),
            new Step("ALTER TABLE s.t SET PARTITIONED BY (a, bucket(4, bb))",
                    tx -> tx.setPartitioning("s", "t", List.of(PartitionField.identity("a"), PartitionField.of("bb", "bucket(4)")))),
            new Step("ALTER TABLE s.t SET SORTED BY (a DESC, bb)",
                    tx -> tx.setSortOrder("s", "t", List.of(new SortField("a", "duckdb", true, false), SortField.ascending("bb")))),
            new Step("ALTER TABLE s.t RESET PARTITIONED BY", tx -> tx.setPartitioning("s", "t", List.of())),
            new Step("COMMENT ON TABLE s.t IS 'a table'", tx -> tx.setComment("s", "t", "a table")),
            new Step("COMMENT ON COLUMN s.t.c IS 'a column'", tx -> tx.setColumnComment("s", "t", List.of("c"), "a column")),
            new Step("CREATE VIEW s.v AS SELECT a FROM s.t", tx -> tx.createView("s", "v", "duckdb", "SELECT a FROM s.t")),
            new Step("CREATE TABLE s.u (k INTEGER)", tx -> tx.createTable(NewTable.of("s", "u", List.of(ColumnDefinition.of("k", "int32"))))),
            new Step("ALTER TABLE s.u RENAME TO u2", tx -> tx.renameTable("s", "u", "u2")),
            new Step("DROP VIEW s.v", tx -> tx.dropView("s", "v")),
            new Step("DROP TABLE s.u2", tx -> tx.dropTable("s", "u2")));

    private static final List<String> COMPARED = List.of(
            "SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM lake_meta.ducklake_snapshot ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_snapshot_changes ORDER BY ALL",
            "SELECT schema_id, begin_snapshot, end_snapshot, schema_name, path, path_is_relative FROM lake_meta.ducklake_schema ORDER BY ALL",
            "SELECT table_id, begin_snapshot, end_snapshot, schema_id, table_name, path, path_is_relative FROM lake_meta.ducklake_table ORDER BY ALL",
            "SELECT view_id, begin_snapshot, end_snapshot, schema_id, view_name, dialect, sql, column_aliases FROM lake_meta.ducklake_view ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_column ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_tag ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_column_tag ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_partition_info ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_partition_column ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_sort_info ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_sort_expression ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_schema_versions ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_inlined_data_tables ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_metadata WHERE key NOT IN ('data_path', 'created_by') ORDER BY ALL");

    @TempDir
    Path temp;

    @Test
    void ddlThroughTheCoreWritesTheRowsDuckLakeWrites()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, 10)) {
            execute(lakes.oracle(), "USE lake");
            for (Step step : STEPS) {
                execute(lakes.oracle(), step.sql());
            }
            execute(lakes.oracle(), "CALL lake.set_option('data_inlining_row_limit', 20, schema => 's', table_name => 't')");
            execute(lakes.oracle(), "CALL lake.set_option('target_file_size', '1MB')");
            execute(lakes.oracle(), "CALL lake.set_option('hive_file_pattern', false, schema => 's')");
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(temp.resolve("store").toString()), OpenMode.READ_WRITE)) {
            for (Step step : STEPS) {
                WriteTransaction transaction = WriteTransaction.begin(catalog);
                step.core().accept(transaction);
                transaction.commit();
            }
            LakeOptions.setForTable(catalog, "s", "t", "data_inlining_row_limit", "20");
            LakeOptions.set(catalog, "target_file_size", "1MB");
            LakeOptions.setForSchema(catalog, "s", "hive_file_pattern", "false");
        }
        int compared = 0;
        try (OracleLakes lakes = OracleLakes.open(temp, 10)) {
            for (String sql : COMPARED) {
                lakes.same(sql);
                compared++;
            }
            lakes.both("INSERT INTO lake.s.t (a, bb, c) VALUES (1, 'q', 1.5)");
            lakes.same("SELECT a, bb, c, st, m, rowid FROM lake.s.t");
            lakes.same("SELECT table_id, column_id, contains_null, contains_nan, min_value, max_value FROM lake_meta.ducklake_table_column_stats ORDER BY ALL");
            compared += 2;
        }
        assertThat(compared).isEqualTo(COMPARED.size() + 2);
    }
}
