package io.moraine.cli.cat;

import io.moraine.core.scan.DataFileTask;
import io.moraine.core.types.TableColumn;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The decoded rows of data files, for {@link ChangeFeedReader}: none kept ({@link #none()}), or kept by file and read
 * columns ({@link #kept()}) for a caller that reads many overlapping feeds of one lake, which then decodes each file
 * once. Which rows each feed takes is still decided per feed.
 */
public final class DecodedFiles
{
    /** One row of a data file: its position, hidden snapshot and row id (when the file has them), its values. */
    record Row(long position, OptionalLong embeddedSnapshot, OptionalLong embeddedRowId, Object[] values) {}

    /** Every row of one data file, and whether the file has the hidden snapshot column. */
    record File(boolean embedsSnapshots, List<Row> rows) {}

    private record Key(String path, List<TableColumn> columns) {}

    private final Map<Key, File> rows;

    private DecodedFiles(Map<Key, File> rows)
    {
        this.rows = rows;
    }

    public static DecodedFiles none()
    {
        return new DecodedFiles(null);
    }

    public static DecodedFiles kept()
    {
        return new DecodedFiles(new HashMap<>());
    }

    File rows(DataFileTask file, List<TableColumn> columns, Supplier<File> decode)
    {
        if (rows == null) {
            return decode.get();
        }
        return rows.computeIfAbsent(new Key(file.path(), List.copyOf(columns)), key -> decode.get());
    }
}
