package io.moraine.testing;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The rows of a DuckLake catalog grown by appends: {@code tables} tables created in snapshot 1, then each snapshot
 * adds {@code filesPerSnapshot} data files to one table, round robin. Row ids and file ids follow DuckLake's rules.
 * The benchmarks and the planner's tests load it into a store ({@link #load}).
 */
public final class SyntheticCatalog
{
    private final List<Row> rows = new ArrayList<>();

    public SyntheticCatalog(int snapshots, int filesPerSnapshot, int tables)
    {
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        rows.add(Row.of(TableKind.SNAPSHOT, 0L, start, 0L, 1L, 0L));
        rows.add(Row.of(TableKind.SNAPSHOT_CHANGES, 0L, "created_schema:\"main\"", null, null, null));
        rows.add(Row.of(TableKind.SCHEMA, 0L, new UUID(0, 0), 0L, null, "main", "main/", true));
        rows.add(Row.of(TableKind.SNAPSHOT, 1L, start.plusSeconds(1), 1L, 1L + tables, 0L));
        StringBuilder created = new StringBuilder();
        for (int t = 1; t <= tables; t++) {
            rows.add(table(t, "t" + t, 1));
            created.append(t > 1 ? "," : "").append("created_table:\"main\".\"t").append(t).append('"');
        }
        rows.add(Row.of(TableKind.SNAPSHOT_CHANGES, 1L, created.toString(), null, null, null));
        long nextFileId = 0;
        for (long s = 2; s <= snapshots; s++) {
            long tableId = (s - 2) % tables + 1;
            for (int f = 0; f < filesPerSnapshot; f++) {
                rows.add(dataFile(nextFileId++, tableId, s));
            }
            rows.add(Row.of(TableKind.SNAPSHOT, s, start.plusSeconds(s), 1L, 1L + tables, nextFileId));
            rows.add(Row.of(TableKind.SNAPSHOT_CHANGES, s, "inserted_into_table:" + tableId, null, null, null));
        }
    }

    public List<Row> all()
    {
        return rows;
    }

    public static Row table(long tableId, String name, long begin)
    {
        return Row.of(TableKind.TABLE, tableId, new UUID(1, tableId), begin, null, 0L, name, name + "/", true);
    }

    public static Row dataFile(long fileId, long tableId, long begin)
    {
        return Row.of(TableKind.DATA_FILE, fileId, tableId, begin, null, null, "ducklake-" + new UUID(2, fileId) + ".parquet", true,
                "parquet", 100L, 4096L + fileId, 512L, fileId * 100, null, null, null, null);
    }

    /** Loads every row into {@code catalog} in one commit. */
    public void load(io.moraine.core.catalog.MoraineCatalog catalog)
    {
        io.moraine.core.tx.StagedTransaction load = catalog.begin(-1);
        rows.forEach(load::insert);
        load.commit();
    }
}
