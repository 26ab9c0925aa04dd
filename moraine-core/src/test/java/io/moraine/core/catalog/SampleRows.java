package io.moraine.core.catalog;

import io.moraine.core.row.Column;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** Builds a plausible row of any catalog kind, with every column filled, for round-trip tests. */
final class SampleRows
{
    private SampleRows() {}

    /** A row of {@code kind} whose ids are derived from {@code seed}, begun at {@code beginSnapshot}, still current. */
    static Row of(TableKind kind, long seed, long beginSnapshot)
    {
        Map<String, Object> cells = new HashMap<>();
        for (Column column : kind.columns()) {
            cells.put(column.name(), switch (column.type()) {
                case BIGINT -> seed * 100 + column.name().length();
                case VARCHAR -> column.name() + "-" + seed + " \"quoted\", with commas";
                case BOOLEAN -> seed % 2 == 0;
                case TIMESTAMPTZ -> Instant.parse("2026-01-02T03:04:05.123456Z").plusSeconds(seed);
                case UUID -> new UUID(seed, kind.tag());
            });
        }
        if (kind.isVersioned()) {
            cells.put("begin_snapshot", beginSnapshot);
            cells.put("end_snapshot", null);
        }
        if (kind.hasColumn("table_id")) {
            cells.put("table_id", 1000 + seed);
        }
        if (kind == TableKind.SNAPSHOT || kind == TableKind.SNAPSHOT_CHANGES) {
            cells.put("snapshot_id", beginSnapshot);
        }
        if (kind == TableKind.METADATA) {
            cells.put("key", "option_" + seed);
            cells.put("scope", "table");
        }
        // A NULL in a nullable column must survive too.
        if (kind == TableKind.DATA_FILE) {
            cells.put("file_order", null);
            cells.put("encryption_key", null);
        }
        return Row.ofMap(kind, cells);
    }
}
