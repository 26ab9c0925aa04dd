package io.moraine.duckdb.ext;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Where the lake of a DuckLake METADATA_SCHEMA lives under its moraine store: {@code schemas/<name>}, the name
 * lower-cased (DuckDB matches schema names case-insensitively) and every byte outside {@code [a-z0-9_]} written as
 * {@code -xx} (its UTF-8 byte in hex), so any name makes one safe path segment on a file system and on S3.
 */
final class MetadataSchemaPath
{
    static final String PARENT = "schemas";

    private MetadataSchemaPath() {}

    static String of(String schema)
    {
        StringBuilder segment = new StringBuilder();
        for (byte b : schema.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') {
                segment.append(c);
            }
            else {
                segment.append('-').append(String.format("%02x", b & 0xff));
            }
        }
        return PARENT + "/" + segment;
    }
}
