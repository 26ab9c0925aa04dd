package io.moraine.core.catalog;

import io.moraine.core.row.Column;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;

/**
 * Writes a catalog table row-faithfully as CSV: a header line, then one line per row, values as DuckDB prints them
 * ({@link CellText}); SQL NULL is an empty field and an empty string is {@code ""}, as DuckDB's CSV writer does.
 */
public final class CatalogDump
{
    private CatalogDump() {}

    /** Dumps every row (current and history) of {@code kind}; returns the number of rows written. */
    public static long writeCsv(MoraineCatalog catalog, TableKind kind, Writer out)
    {
        try {
            List<Column> columns = kind.columns();
            out.write(String.join(",", columns.stream().map(Column::name).toList()));
            out.write('\n');
            long rows = 0;
            try (RowCursor cursor = catalog.scan(kind, RowScope.ALL)) {
                while (cursor.hasNext()) {
                    Row row = cursor.next();
                    for (int i = 0; i < columns.size(); i++) {
                        if (i > 0) {
                            out.write(',');
                        }
                        out.write(csvField(CellText.of(row.get(i))));
                    }
                    out.write('\n');
                    rows++;
                }
            }
            out.flush();
            return rows;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String csvField(String text)
    {
        if (text == null) {
            return "";
        }
        if (text.isEmpty() || text.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r')) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }
}
