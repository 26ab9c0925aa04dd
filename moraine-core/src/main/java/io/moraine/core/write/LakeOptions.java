package io.moraine.core.write;

import io.moraine.core.write.files.ByteSizes;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.LakeSchema;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.tx.StagedTransaction;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * DuckLake's options ({@code ducklake_set_option}): a value for the whole lake, a schema or one table, written at once
 * to {@code ducklake_metadata} outside any snapshot, normalised as DuckLake normalises it ({@code true}/{@code false},
 * byte counts, lower-case codecs). Table options apply to the table's next writes: {@code data_inlining_row_limit},
 * {@code target_file_size}, {@code hive_file_pattern}, the Parquet settings.
 */
public final class LakeOptions
{
    /** The options moraine sets, with DuckLake's meaning. */
    public static final List<String> SUPPORTED = List.of("data_inlining_row_limit", "target_file_size", "hive_file_pattern", "parquet_compression",
            "parquet_compression_level", "parquet_row_group_size", "parquet_version", "require_commit_message", "sort_on_insert",
            "rewrite_delete_threshold", "expire_older_than", "delete_older_than");
    private static final List<String> CODECS = List.of("uncompressed", "snappy", "gzip", "zstd", "brotli", "lz4", "lz4_raw");

    private LakeOptions() {}

    /** Sets {@code key} for the whole lake. */
    public static void set(MoraineCatalog catalog, String key, String value)
    {
        write(catalog, key, value, null, null);
    }

    public static void setForSchema(MoraineCatalog catalog, String schema, String key, String value)
    {
        refuseScoped(key);
        long id = withHead(catalog, snapshot -> snapshot.model().schema(schema).map(LakeSchema::id)
                .orElseThrow(() -> new NotFoundException("schema " + schema + " does not exist; name an existing schema")));
        write(catalog, key, value, "schema", id);
    }

    public static void setForTable(MoraineCatalog catalog, String schema, String table, String key, String value)
    {
        refuseScoped(key);
        long id = withHead(catalog, snapshot -> snapshot.model().table(schema, table).map(LakeTable::id)
                .orElseThrow(() -> new NotFoundException("table " + schema + "." + table + " does not exist; name an existing table")));
        write(catalog, key, value, "table", id);
    }

    private static void refuseScoped(String key)
    {
        if (key.equals("expire_older_than") || key.equals("delete_older_than")) {
            throw new InvalidArgumentException("option " + key + " applies to the whole lake only; set it without a schema or table");
        }
    }

    private static void write(MoraineCatalog catalog, String key, String value, String scope, Long scopeId)
    {
        String normalized = normalize(key, value);
        long head = catalog.headSnapshotId().orElseThrow(() -> new NotFoundException("catalog " + catalog.uri() + " has no snapshot"));
        try (CatalogSnapshot snapshot = catalog.at(head)) {
            StagedTransaction tx = catalog.begin(head);
            Optional<Row> existing = current(snapshot, key, scope, scopeId);
            if (existing.isPresent()) {
                tx.update(TableKind.METADATA, Map.of("value", normalized), key, scope, scopeId);
            }
            else {
                tx.insert(Row.of(TableKind.METADATA, key, normalized, scope, scopeId));
            }
            tx.commit();
        }
    }

    /** The option's value set on the table itself (not inherited from its schema or the lake), if any. */
    public static Optional<String> tableValue(CatalogSnapshot snapshot, long tableId, String key)
    {
        return current(snapshot, key, "table", tableId).map(row -> row.getString("value"));
    }

    private static Optional<Row> current(CatalogSnapshot snapshot, String key, String scope, Long scopeId)
    {
        try (var rows = snapshot.children(TableKind.METADATA)) {
            while (rows.hasNext()) {
                Row row = rows.next();
                if (key.equals(row.getString("key")) && java.util.Objects.equals(scope, row.getString("scope"))
                        && java.util.Objects.equals(scopeId, row.getLong("scope_id"))) {
                    return Optional.of(row);
                }
            }
        }
        return Optional.empty();
    }

    private static <T> T withHead(MoraineCatalog catalog, java.util.function.Function<CatalogSnapshot, T> read)
    {
        long head = catalog.headSnapshotId().orElseThrow(() -> new NotFoundException("catalog " + catalog.uri() + " has no snapshot"));
        try (CatalogSnapshot snapshot = catalog.at(head)) {
            return read.apply(snapshot);
        }
    }

    /** The value as DuckLake stores it, or a typed error naming what is wrong. */
    static String normalize(String key, String value)
    {
        String text = value == null ? "" : value.strip();
        return switch (key) {
            case "data_inlining_row_limit", "parquet_compression_level", "parquet_row_group_size" -> {
                long number = wholeNumber(key, text);
                if (key.equals("parquet_row_group_size") && number == 0) {
                    throw new InvalidArgumentException("option parquet_row_group_size cannot be 0; give a number of rows");
                }
                yield Long.toString(number);
            }
            case "target_file_size" -> Long.toString(ByteSizes.parse(text).orElseThrow(() -> new InvalidArgumentException("option target_file_size is '"
                    + text + "'; give a size such as 512MB, 1GiB or a number of bytes")));
            case "parquet_version" -> {
                long version = wholeNumber(key, text);
                if (version != 1 && version != 2) {
                    throw new InvalidArgumentException("option parquet_version is " + text + "; only Parquet versions 1 and 2 exist");
                }
                yield "V" + version;
            }
            case "parquet_compression" -> {
                String codec = text.toLowerCase(Locale.ROOT);
                if (!CODECS.contains(codec)) {
                    throw new InvalidArgumentException("option parquet_compression is '" + text + "'; supported codecs are " + String.join(", ", CODECS));
                }
                yield codec;
            }
            case "hive_file_pattern", "require_commit_message", "sort_on_insert" -> switch (text.toLowerCase(Locale.ROOT)) {
                case "true", "1" -> "true";
                case "false", "0" -> "false";
                default -> throw new InvalidArgumentException("option " + key + " is '" + text + "'; give true or false");
            };
            case "rewrite_delete_threshold" -> {
                double threshold;
                try {
                    threshold = Double.parseDouble(text);
                }
                catch (NumberFormatException e) {
                    throw new InvalidArgumentException("option rewrite_delete_threshold is '" + text + "'; give a fraction between 0 and 1");
                }
                if (threshold < 0 || threshold > 1) {
                    throw new InvalidArgumentException("option rewrite_delete_threshold is " + text + "; it must be between 0 and 1");
                }
                yield String.format(Locale.ROOT, "%f", threshold);
            }
            case "expire_older_than", "delete_older_than" -> text;
            default -> throw new UnsupportedFeatureException("option '" + key + "' is not one moraine sets; supported: " + String.join(", ", SUPPORTED));
        };
    }

    private static long wholeNumber(String key, String text)
    {
        try {
            long number = Long.parseLong(text);
            if (number < 0) {
                throw new NumberFormatException();
            }
            return number;
        }
        catch (NumberFormatException e) {
            throw new InvalidArgumentException("option " + key + " is '" + text + "'; give a whole number of 0 or more");
        }
    }
}
