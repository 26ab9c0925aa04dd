package io.moraine.inline.flush;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.inline.read.InlineBatch;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlineScan;
import io.moraine.core.inline.read.InlineSelection;
import io.moraine.core.row.Row;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.inline.ParquetVariant;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.importer.OracleImports;
import io.moraine.testing.DuckLakeOracle;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.complex.StructVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Inlined VARIANT values survive import (as arrow.parquet.variant), the inline reader and our flush to Parquet. */
class InlineFlushVariantTest
{
    private static final List<String> WORKLOAD = List.of(
            "CREATE TABLE lake.t (id INTEGER, v VARIANT)",
            "INSERT INTO lake.t VALUES (1, {'a': 1, 'b': 'x', 'n': [1, NULL]}::VARIANT), (2, [1, 2, 3]::VARIANT), (3, 42::VARIANT), "
                    + "(4, NULL), (5, 'str'::VARIANT), (6, 2.5::DOUBLE::VARIANT), (7, true::VARIANT), (8, DATE '2026-01-02'::VARIANT), "
                    + "(9, TIMESTAMP '2026-01-02 03:04:05.25'::VARIANT), (10, 'null'::JSON::VARIANT)",
            "INSERT INTO lake.t VALUES (11, 12345678901::BIGINT::VARIANT), (12, {'nested': {'deep': [true, false]}, 'e': 'x'}::VARIANT), (14, '{\"k\": [1, 2], \"s\": null}'::JSON::VARIANT), "
                    + "(13, 1.25::DECIMAL(10, 2)::VARIANT)");

    /** Every observable form of a VARIANT DuckDB offers, per row. */
    private static final String VALUES = "id, v IS NULL, v::VARCHAR, variant_typeof(v), v::JSON::VARCHAR";
    /** The same with object keys sorted: a Parquet Variant object keeps its fields by key, DuckDB's VARIANT in insertion order. */
    private static final String NORMALIZED_VALUES = "id, v IS NULL, variant_normalize(v)::VARCHAR, variant_typeof(variant_normalize(v)), "
            + "variant_normalize(v)::JSON::VARCHAR";

    @TempDir
    Path temp;

    @Test
    void inlinedVariantsAreImportedReadAndFlushedAsDuckDbReadsThem()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            for (String step : WORKLOAD) {
                oracle.execute(step);
            }
            List<List<String>> expected = oracle.query("SELECT " + NORMALIZED_VALUES + " FROM lake.t ORDER BY id");
            OracleImports.importInto(oracle, temp.resolve("copy.ducklake"), store);

            List<String> ourFiles = new ArrayList<>();
            Map<String, List<Object>> ourStats = new TreeMap<>();
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                assertReadBack(catalog, expected);
                for (InlineFlusher.FlushedFile file : InlineFlusher.flush(catalog, Optional.empty(), TestLakeFiles.FILES)) {
                    ourFiles.add(file.dataFile());
                }
                try (CatalogSnapshot after = catalog.latest()) {
                    Map<Long, String> names = new HashMap<>();
                    after.columns(1).forEach(column -> names.put(column.getLong("column_id"), column.getString("column_name")));
                    for (Row stats : after.fileColumnStats(1).toList()) {
                        assertThat(stats.getLong("column_size_bytes")).as("size of %s", names.get(stats.getLong("column_id"))).isPositive();
                        ourStats.merge(names.get(stats.getLong("column_id")), stats(stats.getLong("value_count"), stats.getLong("null_count"),
                                stats.getString("min_value"), stats.getString("max_value")), InlineFlushVariantTest::summed);
                    }
                }
            }
            assertThat(ourFiles).isNotEmpty();
            String ours = ourFiles.stream().map(path -> "'" + path + "'").collect(Collectors.joining(", ", "[", "]"));
            assertThat(oracle.query("SELECT " + NORMALIZED_VALUES + " FROM read_parquet(" + ours + ") ORDER BY id")).isEqualTo(expected);
            long variantColumnId = Long.parseLong(oracle.query("SELECT column_id FROM __ducklake_metadata_lake.ducklake_column "
                    + "WHERE column_name = 'v'").getFirst().getFirst());
            for (String file : ourFiles) {
                assertThat(oracle.query("SELECT name, field_id FROM parquet_schema('" + file + "') WHERE name IN ('v', 'metadata', 'value') ORDER BY name").stream()
                        .map(row -> List.of(row.get(0), String.valueOf(row.get(1)))))
                        .containsExactly(List.of("metadata", "null"), List.of("v", String.valueOf(variantColumnId)), List.of("value", "null"));
            }

            oracle.execute("CALL ducklake_flush_inlined_data('lake')");
            String theirs = oracle.query("SELECT path FROM __ducklake_metadata_lake.ducklake_data_file").stream()
                    .map(row -> "'" + oracle.dataPath().resolve("main/t/" + row.getFirst()) + "'")
                    .collect(Collectors.joining(", ", "[", "]"));
            List<List<String>> flushed = oracle.query("SELECT " + VALUES + " FROM read_parquet(" + theirs + ") ORDER BY id");
            assertThat(oracle.query("SELECT " + VALUES + " FROM read_parquet(" + ours + ") ORDER BY id")).isEqualTo(flushed);
            assertThat(oracle.query("SELECT " + VALUES + " FROM lake.t ORDER BY id")).isEqualTo(flushed);

            Map<String, List<Object>> theirStats = new TreeMap<>();
            for (List<String> row : oracle.query("SELECT c.column_name, s.value_count, s.null_count, s.min_value, s.max_value "
                    + "FROM __ducklake_metadata_lake.ducklake_file_column_stats s JOIN __ducklake_metadata_lake.ducklake_column c USING (column_id)")) {
                theirStats.merge(row.get(0), stats(Long.parseLong(row.get(1)), Long.parseLong(row.get(2)), row.get(3), row.get(4)),
                        InlineFlushVariantTest::summed);
            }
            assertThat(ourStats).isEqualTo(theirStats);
        }
    }

    @Test
    void anInlinedVariantInsideAStructIsRefusedAtImportNamingTheColumn()
            throws Exception
    {
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("nested-lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.n (id INTEGER, s STRUCT(a VARIANT))");
            oracle.execute("INSERT INTO lake.n VALUES (1, {'a': 5::VARIANT})");
            String copy = oracle.catalogCopy(temp.resolve("nested-copy.ducklake"));
            assertThatThrownBy(() -> CatalogImporter.importCatalog(DuckLakeSource.parse(copy), StoreUri.parse(temp.resolve("nested-store").toString()),
                    Optional.empty(), CatalogImporter.Progress.SILENT))
                    .isInstanceOf(UnsupportedFeatureException.class)
                    .hasMessageContaining("column s of")
                    .hasMessageContaining("ducklake_inlined_data_1_1")
                    .hasMessageContaining("STRUCT(a VARIANT)");
        }
    }

    /** The inline reader hands the chunks back with VARIANT as the extension struct, SQL NULL as a NULL struct. */
    private static void assertReadBack(MoraineCatalog catalog, List<List<String>> expected)
    {
        Map<Integer, Boolean> present = new TreeMap<>();
        try (CatalogSnapshot snapshot = catalog.latest(); RootAllocator allocator = new RootAllocator();
                InlineScan scan = InlineReader.scan(snapshot.reader(), 1, new InlineSelection.AtSnapshot(snapshot.id()), Optional.empty(), 100,
                        allocator)) {
            while (scan.hasNext()) {
                InlineBatch batch = scan.next();
                assertThat(ParquetVariant.isVariant(batch.root().getSchema().findField("v"))).isTrue();
                IntVector ids = (IntVector) batch.root().getVector("id");
                StructVector variants = (StructVector) batch.root().getVector("v");
                VarBinaryVector metadata = (VarBinaryVector) variants.getChild(ParquetVariant.METADATA);
                VarBinaryVector values = (VarBinaryVector) variants.getChild(ParquetVariant.VALUE);
                for (int row = 0; row < batch.root().getRowCount(); row++) {
                    boolean isPresent = !variants.isNull(row);
                    if (isPresent) {
                        // Variant metadata starts with its version (1) in the low bits of the header byte.
                        assertThat(metadata.get(row)[0] & 0x0F).isEqualTo(1);
                        assertThat(values.get(row)).isNotEmpty();
                    }
                    present.put(ids.get(row), isPresent);
                }
            }
        }
        Map<Integer, Boolean> expectedPresent = new TreeMap<>();
        expected.forEach(row -> expectedPresent.put(Integer.parseInt(row.get(0)), !Boolean.parseBoolean(row.get(1))));
        assertThat(present).isEqualTo(expectedPresent);
        assertThat(present).containsValue(false);
    }

    private static List<Object> stats(Long values, Long nulls, String min, String max)
    {
        return List.of(values, nulls, String.valueOf(min), String.valueOf(max));
    }

    /** Stats over several files summed per column (counts only; the bounds must agree). */
    private static List<Object> summed(List<Object> a, List<Object> b)
    {
        return List.of((Long) a.get(0) + (Long) b.get(0), (Long) a.get(1) + (Long) b.get(1), a.get(2).equals(b.get(2)) ? a.get(2) : "differs",
                a.get(3).equals(b.get(3)) ? a.get(3) : "differs");
    }
}
