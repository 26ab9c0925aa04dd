package io.moraine.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The engine-neutral half of the oracle comparison: the history of a small real lake, its canonical rows, the row assertion. */
class OracleComparisonTest
{
    @TempDir
    Path temp;

    @Test
    void tablesAndColumnsAtEachSnapshotFollowCreatesRenamesAndDrops()
            throws Exception
    {
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.main.a (x INTEGER)"); // snapshot 1
            oracle.execute("INSERT INTO lake.main.a VALUES (1)"); // 2
            oracle.execute("ALTER TABLE lake.main.a RENAME COLUMN x TO y"); // 3
            oracle.execute("CREATE TABLE lake.main.b (z VARCHAR)"); // 4
            oracle.execute("DROP TABLE lake.main.a"); // 5
            DuckLakeHistory history = DuckLakeHistory.of(oracle, temp.resolve("copy.ducklake"));
            LakeTable a = new LakeTable("main", "a");
            LakeTable b = new LakeTable("main", "b");

            assertThat(history.survivingSnapshots()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
            assertThat(history.tablesAt(0)).isEmpty();
            assertThat(history.tablesAt(2)).containsExactly(a);
            assertThat(history.tablesAt(4)).containsExactly(a, b);
            assertThat(history.tablesAt(5)).containsExactly(b);
            assertThat(history.columnsAt(a, 2)).containsExactly(new LakeColumn("x", "INTEGER"));
            assertThat(history.columnsAt(a, 4)).containsExactly(new LakeColumn("y", "INTEGER"));
            assertThat(history.tableSnapshotPairs()).isEqualTo(6);
            assertThat(history.snapshotsWithColumns(a, List.of("x"))).isEqualTo(2);
            assertThat(history.snapshotsWithColumns(a, List.of("y"))).isEqualTo(2);
            assertThat(history.snapshotsWithColumns(a, List.of("x", "y"))).isZero();
            assertThat(DuckDbCanonicalRows.read(oracle, a, 4, history.columnsAt(a, 4), "")).containsExactly(List.of("1"));
        }
    }

    @Test
    void duckDbRowsPrintEveryTypeCanonically()
            throws Exception
    {
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.main.t (d DECIMAL(12, 2), ts TIMESTAMP, tz TIMESTAMPTZ, tags VARCHAR[], s STRUCT(b INTEGER, a VARCHAR), "
                    + "m MAP(VARCHAR, INTEGER), u UUID, p BLOB, i INTERVAL, n VARCHAR)");
            oracle.execute("INSERT INTO lake.main.t VALUES (10.50, TIMESTAMP '2026-01-02 03:04:05.5', TIMESTAMPTZ '2026-01-02 03:04:05+02', "
                    + "['x', NULL], {'b': 1, 'a': 'it''s'}, MAP {'z': 1, 'a': 2}, '00000000-0000-0000-0000-000000000001', '\\xAA'::BLOB, "
                    + "INTERVAL 90 MINUTE, 'NULL')");
            LakeTable table = new LakeTable("main", "t");
            DuckLakeHistory history = DuckLakeHistory.of(oracle, temp.resolve("copy.ducklake"));

            assertThat(DuckDbCanonicalRows.read(oracle, table, 2, history.columnsAt(table, 2), "")).containsExactly(List.of(
                    "10.50",
                    "timestamp 2026-01-02 03:04:05.500000000",
                    "timestamptz 2026-01-02 01:04:05.000000000 UTC",
                    "['x', NULL]",
                    "{b: 1, a: 'it''s'}",
                    "map{'a'=2, 'z'=1}",
                    "uuid 00000000-0000-0000-0000-000000000001",
                    "X'aa'",
                    "'01:30:00'",
                    "'NULL'"));
        }
    }

    @Test
    void canonicalTextIsTheSameForEveryJavaFormOfAValueAndDiffersForOthers()
    {
        Instant instant = Instant.parse("2026-01-02T01:04:05Z");
        assertThat(CanonicalText.of(OffsetDateTime.parse("2026-01-02T03:04:05+02:00")))
                .isEqualTo(CanonicalText.of(ZonedDateTime.ofInstant(instant, ZoneId.of("UTC"))))
                .isEqualTo(CanonicalText.of(instant));
        Map<String, Object> forwards = new LinkedHashMap<>();
        forwards.put("a", 1);
        forwards.put("b", 2);
        Map<String, Object> backwards = new LinkedHashMap<>();
        backwards.put("b", 2);
        backwards.put("a", 1);
        assertThat(CanonicalText.of(forwards)).isEqualTo(CanonicalText.of(backwards));
        assertThat(CanonicalText.of(new CanonicalText.Struct(forwards))).isNotEqualTo(CanonicalText.of(new CanonicalText.Struct(backwards)));
        assertThat(CanonicalText.of(null)).isNotEqualTo(CanonicalText.of("NULL"));
        assertThat(CanonicalText.of("1")).isNotEqualTo(CanonicalText.of(1));
        assertThat(CanonicalText.of(new BigDecimal("10.50"))).isNotEqualTo(CanonicalText.of(new BigDecimal("10.5")));
        assertThat(CanonicalText.of(LocalDateTime.parse("2026-01-02T01:04:05"))).isNotEqualTo(CanonicalText.of(instant));
        assertThat(CanonicalText.of(List.of("a, b"))).isNotEqualTo(CanonicalText.of(List.of("a", "b")));
        assertThatThrownBy(() -> CanonicalText.of(new Object())).hasMessageContaining("no canonical text");
    }

    @Test
    void rowsThatDifferNameTheColumnAndBothValues()
    {
        List<LakeColumn> columns = List.of(new LakeColumn("id", "INTEGER"), new LakeColumn("wait", "INTERVAL"));
        assertThatThrownBy(() -> CanonicalRowsAssert.assertSameRows("t at snapshot 3", columns,
                List.of(List.of("1", "'01:00:00'"), List.of("2", "NULL")), "Engine",
                List.of(List.of("2", "NULL"), List.of("1", "'PT1H'"))))
                .hasMessageContaining("t at snapshot 3: Engine read 2 rows, DuckDB 2; 1 rows only DuckDB has, 1 only Engine has")
                .hasMessageContaining("wait (INTERVAL): DuckDB '01:00:00', Engine 'PT1H'");
        CanonicalRowsAssert.assertSameRows("t", columns, List.of(List.of("1", "NULL"), List.of("2", "NULL")), "Engine",
                List.of(List.of("2", "NULL"), List.of("1", "NULL")));
    }
}
