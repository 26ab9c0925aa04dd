package io.moraine.importer;

import io.moraine.core.error.InvalidArgumentException;

import java.nio.file.Files;
import java.nio.file.Path;

import static java.util.Objects.requireNonNull;

/**
 * A DuckLake catalog named in DuckLake's own ATTACH syntax: {@code ducklake:<file>.ducklake},
 * {@code ducklake:duckdb:<file>}, {@code ducklake:sqlite:<file>} or {@code ducklake:postgres:<conninfo>}. It knows
 * how to attach the catalog's metadata database (not the lake) read-only in DuckDB.
 */
public record DuckLakeSource(Kind kind, String location, String text)
{
    public enum Kind
    {
        DUCKDB("", ""), SQLITE("sqlite_scanner", "sqlite"), POSTGRES("postgres_scanner", "postgres");

        private final String extension;
        private final String attachType;

        Kind(String extension, String attachType)
        {
            this.extension = extension;
            this.attachType = attachType;
        }

        /** The DuckDB extension that reads this kind of database, or empty for DuckDB's own files. */
        public String extension()
        {
            return extension;
        }
    }

    private static final String FORMS = "use ducklake:<file>.ducklake, ducklake:duckdb:<file>, ducklake:sqlite:<file> or ducklake:postgres:<conninfo>";

    public DuckLakeSource
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(location, "location is null");
    }

    public static DuckLakeSource parse(String text)
    {
        if (text == null || !text.startsWith("ducklake:")) {
            throw new InvalidArgumentException("source '" + text + "' is not a DuckLake catalog name; " + FORMS);
        }
        String rest = text.substring("ducklake:".length());
        DuckLakeSource source;
        if (rest.startsWith("duckdb:")) {
            source = new DuckLakeSource(Kind.DUCKDB, rest.substring("duckdb:".length()), text);
        }
        else if (rest.startsWith("sqlite:")) {
            source = new DuckLakeSource(Kind.SQLITE, rest.substring("sqlite:".length()), text);
        }
        else if (rest.startsWith("postgres:")) {
            source = new DuckLakeSource(Kind.POSTGRES, rest.substring("postgres:".length()), text);
        }
        else if (rest.matches("^[a-z]+:.*") && !rest.matches("^[a-zA-Z]:[\\\\/].*")) {
            throw new InvalidArgumentException("source '" + text + "' names an unsupported catalog database '"
                    + rest.substring(0, rest.indexOf(':')) + "'; " + FORMS);
        }
        else {
            source = new DuckLakeSource(Kind.DUCKDB, rest, text);
        }
        if (source.location.isBlank()) {
            throw new InvalidArgumentException("source '" + text + "' names no catalog database; " + FORMS);
        }
        if (source.kind != Kind.POSTGRES && !Files.isRegularFile(Path.of(source.location))) {
            throw new InvalidArgumentException("source '" + text + "': catalog file " + source.location + " does not exist "
                    + "or is not a file; check the path");
        }
        return source;
    }

    /** The statement that attaches the metadata database read-only under {@code alias}. */
    public String attachStatement(String alias)
    {
        String quoted = location.replace("'", "''");
        return switch (kind) {
            case DUCKDB -> "ATTACH '" + quoted + "' AS " + alias + " (READ_ONLY)";
            case SQLITE, POSTGRES -> "ATTACH '" + quoted + "' AS " + alias + " (TYPE " + kind.attachType + ", READ_ONLY)";
        };
    }
}
