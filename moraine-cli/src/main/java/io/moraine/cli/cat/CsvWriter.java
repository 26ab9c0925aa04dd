package io.moraine.cli.cat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;

/**
 * CSV lines (RFC 4180) as DuckDB's CSV writer and {@code bin/moraine dump} write them: a field with a comma, quote or
 * line break is quoted, and so is an empty string, so that NULL alone is an empty unquoted field. (commons-csv's
 * minimal quoting leaves empty strings unquoted, which makes them NULLs.)
 */
public final class CsvWriter
{
    private final Writer out;

    public CsvWriter(Writer out)
    {
        this.out = out;
    }

    /** One line; a null field is NULL. */
    public void writeLine(List<String> fields)
    {
        try {
            out.write(line(fields));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text of one line, ending in a line feed. */
    public static String line(List<String> fields)
    {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            line.append(field(fields.get(i)));
        }
        return line.append('\n').toString();
    }

    private static String field(String text)
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
