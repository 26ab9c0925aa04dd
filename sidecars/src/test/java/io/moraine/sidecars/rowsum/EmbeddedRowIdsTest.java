package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Deriving summaries from DuckDB-written data files whose row ids are embedded (field id 2147483540), checked against
 * DuckDB's own reading of the same file: every row's id and position.
 */
class EmbeddedRowIdsTest
{
    @TempDir
    Path directory;

    @Test
    void anUpdateRewriteShapedFileDerivesAPermutedSummaryThatMatchesDuckDb()
            throws Exception
    {
        // 200,000 sparse ids over two million, in shuffled file order, beside two user columns
        assertDerivationMatchesDuckDb("rewrite.parquet",
                "SELECT (i * 10 + hash(i) % 10)::BIGINT AS _ducklake_internal_row_id, i AS a, 'v' || i AS b FROM range(200000) t(i) ORDER BY hash(i + 1)",
                RowOrder.Permuted.class, 200_000);
    }

    @Test
    void aFlushedFileWithSeveralVersionsOfARowDerivesARepeatedSummaryThatMatchesDuckDb()
            throws Exception
    {
        // ids 0..49,999; every third id at two versions, ordered by (row_id, snapshot) as a flush writes them
        assertDerivationMatchesDuckDb("flushed.parquet",
                "SELECT i AS _ducklake_internal_row_id, v AS _ducklake_internal_snapshot_id, i * 2 AS a FROM range(50000) t(i), "
                        + "LATERAL (SELECT unnest(CASE WHEN i % 3 = 0 THEN [1, 2] ELSE [1] END) AS v) ORDER BY i, v",
                RowOrder.Repeated.class, 50_000 + 16_667);
    }

    @Test
    void aFileWithoutEmbeddedIdsIsRefusedByName()
            throws Exception
    {
        Path file = directory.resolve("plain.parquet");
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:"); Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (SELECT 1 AS a) TO '" + file + "' (FORMAT parquet, FIELD_IDS {a: 1})");
        }
        DataFileIdentity identity = new DataFileIdentity(1, 1, file.toString(), Files.size(file));
        assertThatThrownBy(() -> EmbeddedRowIds.read(LocalFileSystem.INSTANCE, identity))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("row_id_start + position");
    }

    private void assertDerivationMatchesDuckDb(String name, String rows, Class<? extends RowOrder> orderType, int expectedRows)
            throws Exception
    {
        Path file = directory.resolve(name);
        List<long[]> duckdbRows = new ArrayList<>();
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:"); Statement statement = duckdb.createStatement()) {
            String fieldIds = rows.contains("_ducklake_internal_snapshot_id")
                    ? "{_ducklake_internal_row_id: 2147483540, _ducklake_internal_snapshot_id: 2147483539, a: 1}"
                    : "{_ducklake_internal_row_id: 2147483540, a: 1, b: 2}";
            statement.execute("COPY (" + rows + ") TO '" + file + "' (FORMAT parquet, ROW_GROUP_SIZE 30000, FIELD_IDS " + fieldIds + ")");
            try (ResultSet result = statement.executeQuery("SELECT file_row_number, _ducklake_internal_row_id FROM read_parquet('" + file
                    + "', file_row_number = true) ORDER BY file_row_number")) {
                while (result.next()) {
                    duckdbRows.add(new long[] {result.getLong(1), result.getLong(2)});
                }
            }
        }
        assertThat(duckdbRows).hasSize(expectedRows);
        DataFileIdentity identity = new DataFileIdentity(2, 3, file.toString(), Files.size(file));

        long[] ids = EmbeddedRowIds.read(LocalFileSystem.INSTANCE, identity);
        RowSummary derived = EmbeddedRowIds.derive(LocalFileSystem.INSTANCE, identity);
        assertThat(derived.order()).isInstanceOf(orderType);
        RowSummaryWriter.write(LocalFileSystem.INSTANCE, identity, derived);
        RowSummarySidecar sidecar = new RowSummaryReader(LocalFileSystem.INSTANCE, new RowSummaryMetrics()).open(identity).orElseThrow();
        RowSummary loaded = sidecar.loadSummary().orElseThrow();
        assertThat(loaded).isEqualTo(derived);

        int compared = 0;
        for (long[] row : duckdbRows) {
            int position = Math.toIntExact(row[0]);
            assertThat(ids[position]).isEqualTo(row[1]);
            assertThat(sidecar.set().contains(row[1])).isTrue();
            assertThat(loaded.positionsOf(row[1])).contains(position);
            compared++;
        }
        assertThat(compared).isEqualTo(expectedRows).isEqualTo(ids.length);
    }
}
