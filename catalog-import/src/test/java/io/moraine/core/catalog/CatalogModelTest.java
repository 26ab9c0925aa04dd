package io.moraine.core.catalog;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.importer.OracleImports;
import io.moraine.testing.DuckLakeOracle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The typed read model ({@link CatalogModel}) over a lake DuckDB 1.5.5 and DuckLake wrote: schemas, tables, views,
 * nested columns, partition and sort specs, tags, and how renames, drops and time travel show in it.
 */
class CatalogModelTest
{
    @TempDir
    static Path temp;

    private static MoraineCatalog catalog;
    private static long beforePartitioning;
    private static long beforeRename;
    private static long beforeDrop;
    private static String dataPath;

    @BeforeAll
    static void writeLake()
            throws Exception
    {
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE SCHEMA lake.sales");
            oracle.execute("CREATE TABLE lake.main.events (id BIGINT NOT NULL, ts TIMESTAMP, payload STRUCT(a INTEGER, tags VARCHAR[]), "
                    + "attributes MAP(VARCHAR, INTEGER), \"Mixed Case\" VARCHAR)");
            beforePartitioning = head(oracle);
            oracle.execute("ALTER TABLE lake.main.events SET PARTITIONED BY (year(ts), id)");
            oracle.execute("ALTER TABLE lake.main.events SET SORTED BY (id DESC NULLS FIRST, ts)");
            oracle.execute("COMMENT ON TABLE lake.main.events IS 'what happened'");
            oracle.execute("CREATE TABLE lake.sales.orders (amount DECIMAL(12, 2) DEFAULT 0)");
            beforeRename = head(oracle);
            oracle.execute("ALTER TABLE lake.sales.orders RENAME TO sales_orders");
            oracle.execute("CREATE TABLE lake.main.scratch (note VARCHAR)");
            beforeDrop = head(oracle);
            oracle.execute("DROP TABLE lake.main.scratch");
            oracle.execute("CREATE VIEW lake.main.recent AS SELECT id, ts FROM lake.main.events WHERE ts > TIMESTAMP '2026-01-01'");
            StoreUri store = StoreUri.parse(temp.resolve("store").toString());
            OracleImports.importInto(oracle, temp.resolve("lake-copy.ducklake"), store);
            catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY);
            dataPath = oracle.dataPath() + "/";
        }
    }

    @AfterAll
    static void closeCatalog()
    {
        if (catalog != null) {
            catalog.close();
        }
    }

    private static long head(DuckLakeOracle oracle)
            throws Exception
    {
        return Long.parseLong(oracle.query("SELECT max(snapshot_id) FROM __ducklake_metadata_lake.ducklake_snapshot").getFirst().getFirst());
    }

    @Test
    void schemasAndTablesAreListedAndResolvedByExactName()
    {
        try (CatalogSnapshot snapshot = catalog.latest()) {
            CatalogModel model = snapshot.model();
            assertThat(model.schemas()).extracting(LakeSchema::name).containsExactlyInAnyOrder("main", "sales");
            LakeSchema sales = model.schema("sales").orElseThrow();
            assertThat(model.schema(sales.id())).contains(sales);
            assertThat(sales.uuid()).isNotNull();
            assertThat(model.schema("SALES")).as("names match as stored, case-sensitively").isEmpty();

            assertThat(model.tables()).extracting(LakeTable::qualifiedName).containsExactlyInAnyOrder("main.events", "sales.sales_orders");
            assertThat(model.tables(sales)).extracting(LakeTable::name).containsExactly("sales_orders");
            LakeTable events = model.table("main", "events").orElseThrow();
            assertThat(events.schema().name()).isEqualTo("main");
            assertThat(model.table(events.id())).contains(events);
            assertThat(model.table("main", "EVENTS")).isEmpty();
            assertThat(model.table("sales", "events")).as("a table is found in its own schema only").isEmpty();
            assertThat(model.table("nowhere", "events")).isEmpty();

            // the paths DuckLake gave them resolve as the snapshot's own path resolution does
            assertThat(events.resolvedPath(dataPath)).isEqualTo(snapshot.tablePath(dataPath, events.id()));
            assertThat(events.resolvedPath(dataPath)).startsWith(dataPath).endsWith("events/");
        }
    }

    @Test
    void columnsAreTypedTreesWithNullabilityAndDefaults()
    {
        try (CatalogSnapshot snapshot = catalog.latest()) {
            CatalogModel model = snapshot.model();
            TableSchema columns = model.columns(model.table("main", "events").orElseThrow());
            assertThat(columns.columns()).extracting(TableColumn::name).containsExactly("id", "ts", "payload", "attributes", "Mixed Case");
            TableColumn id = columns.column("id").orElseThrow();
            assertThat(id.type()).isEqualTo(DuckLakeType.of(PrimitiveKind.INT64));
            assertThat(id.nullable()).as("NOT NULL").isFalse();
            assertThat(columns.column("ts").orElseThrow().nullable()).isTrue();

            TableColumn payload = columns.column("payload").orElseThrow();
            assertThat(payload.type()).isInstanceOf(DuckLakeType.StructOf.class);
            assertThat(payload.children()).extracting(TableColumn::name).containsExactly("a", "tags");
            TableColumn tags = payload.children().get(1);
            assertThat(tags.type()).isInstanceOf(DuckLakeType.ListOf.class);
            assertThat(tags.children().getFirst().type()).isEqualTo(DuckLakeType.of(PrimitiveKind.VARCHAR));
            assertThat(columns.column(tags.children().getFirst().columnId())).as("nested columns are findable by id").isPresent();
            assertThat(columns.column("attributes").orElseThrow().children()).extracting(TableColumn::name).containsExactly("key", "value");

            TableColumn amount = model.columns(model.table("sales", "sales_orders").orElseThrow()).columns().getFirst();
            assertThat(amount.type()).isEqualTo(new DuckLakeType.Decimal(12, 2));
            assertThat(amount.initialDefault()).as("DuckLake records the DEFAULT as the initial default").contains("0.00");
        }
    }

    @Test
    void aDefinitionHasThePartitionSpecSortSpecAndComment()
    {
        try (CatalogSnapshot snapshot = catalog.latest()) {
            CatalogModel model = snapshot.model();
            TableDefinition events = model.definition(model.table("main", "events").orElseThrow());
            TableSchema columns = events.columns();

            PartitionSpec partitioning = events.partitionSpec().orElseThrow();
            assertThat(partitioning.keys()).extracting(key -> key.transform().kind())
                    .containsExactly(PartitionTransform.Kind.YEAR, PartitionTransform.Kind.IDENTITY);
            assertThat(partitioning.keys()).extracting(PartitionSpec.Key::columnId)
                    .containsExactly(columns.column("ts").orElseThrow().columnId(), columns.column("id").orElseThrow().columnId());
            assertThat(partitioning.keys()).extracting(PartitionSpec.Key::hiveName).containsExactly("year", "id");

            SortSpec sorting = events.sortSpec().orElseThrow();
            assertThat(sorting.keys()).extracting(SortSpec.Key::index).containsExactly(0, 1);
            assertThat(sorting.keys().getFirst().expression()).contains("id");
            assertThat(sorting.keys().getFirst().descending()).isTrue();
            assertThat(sorting.keys().getFirst().nullsFirst()).isTrue();
            assertThat(sorting.keys().get(1).descending()).isFalse();
            assertThat(sorting.keys()).extracting(SortSpec.Key::dialect).containsOnly("duckdb");

            assertThat(events.comment()).contains("what happened");
            assertThat(events.tags()).containsEntry("comment", "what happened");

            TableDefinition orders = model.definition(model.table("sales", "sales_orders").orElseThrow());
            assertThat(orders.partitionSpec()).isEmpty();
            assertThat(orders.sortSpec()).isEmpty();
            assertThat(orders.comment()).isEmpty();
        }
    }

    @Test
    void viewsHaveTheirDialectAndSql()
    {
        try (CatalogSnapshot snapshot = catalog.latest()) {
            CatalogModel model = snapshot.model();
            LakeSchema main = model.schema("main").orElseThrow();
            assertThat(model.views(main)).extracting(LakeView::name).containsExactly("recent");
            LakeView recent = model.view("main", "recent").orElseThrow();
            assertThat(recent.dialect()).isEqualTo("duckdb");
            assertThat(recent.sql()).as("as DuckLake stores it, the catalog name a placeholder").contains("FROM {DUCKLAKE_CATALOG}.main.events");
            assertThat(recent.schema()).isEqualTo(main);
            assertThat(model.views(model.schema("sales").orElseThrow())).isEmpty();
            assertThat(model.table("main", "recent")).as("a view is not a table").isEmpty();
        }
    }

    @Test
    void anOlderSnapshotHasTheNamesTablesAndSpecsOfItsTime()
    {
        try (CatalogSnapshot snapshot = catalog.at(beforeRename)) {
            CatalogModel model = snapshot.model();
            LakeTable orders = model.table("sales", "orders").orElseThrow();
            assertThat(model.table("sales", "sales_orders")).isEmpty();
            assertThat(model.views(model.schema("main").orElseThrow())).isEmpty();
            try (CatalogSnapshot latest = catalog.latest()) {
                LakeTable renamed = latest.model().table("sales", "sales_orders").orElseThrow();
                assertThat(renamed.id()).as("a rename keeps the table's id").isEqualTo(orders.id());
                assertThat(renamed.uuid()).isEqualTo(orders.uuid());
            }
        }
        try (CatalogSnapshot snapshot = catalog.at(beforeDrop)) {
            assertThat(snapshot.model().tables()).extracting(LakeTable::qualifiedName).containsExactlyInAnyOrder("main.events", "sales.sales_orders", "main.scratch");
        }
        try (CatalogSnapshot latest = catalog.latest()) {
            assertThat(latest.model().table("main", "scratch")).as("dropped").isEmpty();
        }
        try (CatalogSnapshot snapshot = catalog.at(beforePartitioning)) {
            CatalogModel model = snapshot.model();
            TableDefinition events = model.definition(model.table("main", "events").orElseThrow());
            assertThat(events.partitionSpec()).isEmpty();
            assertThat(events.sortSpec()).isEmpty();
            assertThat(events.comment()).isEmpty();
            assertThat(events.columns().columns()).hasSize(5);
            assertThat(model.tables()).extracting(LakeTable::qualifiedName).containsExactly("main.events");
        }
    }
}
