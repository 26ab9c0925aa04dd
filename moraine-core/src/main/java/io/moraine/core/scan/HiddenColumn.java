package io.moraine.core.scan;

import java.util.Arrays;
import java.util.Optional;

/**
 * The columns every table has besides its own, as engines show them hidden ({@code $path}, ...): where a row lives and
 * which row it is. Each has a column id no DuckLake column has: {@code $row_id} and {@code $snapshot_id} the field ids
 * of DuckLake's embedded {@code _ducklake_internal_*} columns, the others negative ids. A {@link ScanFilter} may
 * constrain {@link #PATH} (prunes files by path) and {@link #ROW_ID} (prunes files by their row-id ranges).
 */
public enum HiddenColumn
{
    /** The data file's resolved path; NULL for inlined rows. */
    PATH("$path", -1, true),
    /** The row's position in its data file; NULL for inlined rows. */
    FILE_ROW_NUMBER("$file_row_number", -2, false),
    /** The data file's size; NULL for inlined rows. */
    FILE_SIZE_BYTES("$file_size_bytes", -3, false),
    /** DuckLake's {@code rowid} (reference §4.8): the embedded row id, else {@code row_id_start + position}; an inlined row's {@code row_id}. */
    ROW_ID("$row_id", DataFileTask.ROW_ID_FIELD_ID, false),
    /** The snapshot that wrote the row: the embedded snapshot id, else the file's {@code begin_snapshot}; an inlined row's {@code begin_snapshot}. */
    SNAPSHOT_ID("$snapshot_id", DataFileTask.SNAPSHOT_ID_FIELD_ID, false);

    private final String columnName;
    private final long columnId;
    private final boolean text;

    HiddenColumn(String columnName, long columnId, boolean text)
    {
        this.columnName = columnName;
        this.columnId = columnId;
        this.text = text;
    }

    public String columnName()
    {
        return columnName;
    }

    public long columnId()
    {
        return columnId;
    }

    /** VARCHAR ({@code $path}); the others are BIGINT. */
    public boolean isText()
    {
        return text;
    }

    /** Whether inlined rows have a value (only {@code $row_id} and {@code $snapshot_id}). */
    public boolean inlinedRowsHaveIt()
    {
        return this == ROW_ID || this == SNAPSHOT_ID;
    }

    public static Optional<HiddenColumn> ofColumnId(long columnId)
    {
        return Arrays.stream(values()).filter(column -> column.columnId == columnId).findFirst();
    }

    public static Optional<HiddenColumn> ofName(String name)
    {
        return Arrays.stream(values()).filter(column -> column.columnName.equals(name)).findFirst();
    }

    /** A file's value of a per-file column ({@code $path}, {@code $file_size_bytes}); empty for per-row ones. */
    public Optional<Object> fileValue(DataFileTask file)
    {
        return switch (this) {
            case PATH -> Optional.of(file.path());
            case FILE_SIZE_BYTES -> Optional.of(file.sizeBytes());
            default -> Optional.empty();
        };
    }
}
