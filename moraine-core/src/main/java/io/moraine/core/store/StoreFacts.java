package io.moraine.core.store;

import io.moraine.core.error.CorruptionException;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import io.moraine.core.keyspace.Varints;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The global {@code ducklake_metadata} entries moraine keeps as facts of the store rather than as rows:
 * {@code version}, {@code created_by}, {@code data_path} and {@code encrypted}. They are served as the first rows of
 * {@code ducklake_metadata}.
 */
public record StoreFacts(Map<String, String> entries)
{
    public static final String VERSION = "version";
    public static final String CREATED_BY = "created_by";
    public static final String DATA_PATH = "data_path";
    public static final String ENCRYPTED = "encrypted";
    public static final Set<String> KEYS = Set.of(VERSION, CREATED_BY, DATA_PATH, ENCRYPTED);

    /** The DuckLake catalog format this implementation serves. */
    public static final String DUCKLAKE_FORMAT = "1.0";

    public StoreFacts
    {
        entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    public static StoreFacts forNewCatalog(String dataPath, boolean encrypted, String createdBy)
    {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put(VERSION, DUCKLAKE_FORMAT);
        entries.put(CREATED_BY, createdBy);
        entries.put(DATA_PATH, withTrailingSlash(dataPath));
        entries.put(ENCRYPTED, Boolean.toString(encrypted));
        return new StoreFacts(entries);
    }

    private static String withTrailingSlash(String path)
    {
        return path.endsWith("/") ? path : path + "/";
    }

    public static boolean isFact(Row metadataRow)
    {
        return metadataRow.get("scope") == null && KEYS.contains(metadataRow.getString("key"));
    }

    public String get(String key)
    {
        return entries.get(key);
    }

    public StoreFacts with(String key, String value)
    {
        Map<String, String> copy = new LinkedHashMap<>(entries);
        copy.put(key, value);
        return new StoreFacts(copy);
    }

    /** The facts as global {@code ducklake_metadata} rows, in a fixed order. */
    public java.util.List<Row> asMetadataRows()
    {
        return entries.entrySet().stream()
                .map(e -> Row.of(TableKind.METADATA, e.getKey(), e.getValue(), null, null))
                .toList();
    }

    public byte[] encode()
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Varints.write(out, entries.size());
        entries.forEach((key, value) -> {
            Varints.writeString(out, key);
            Varints.writeString(out, value);
        });
        return out.toByteArray();
    }

    /** The facts stored in the system subspace; empty before a catalog was created there. */
    public static StoreFacts read(io.moraine.core.store.KeyValueReader reader)
    {
        byte[] value = reader.get(io.moraine.core.keyspace.SystemKeys.STORE_FACTS);
        return value == null ? new StoreFacts(Map.of()) : decode(value);
    }

    public static StoreFacts decode(byte[] value)
    {
        try {
            ByteBuffer in = ByteBuffer.wrap(value);
            int count = Varints.read(in);
            Map<String, String> entries = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                entries.put(Varints.readString(in), Varints.readString(in));
            }
            return new StoreFacts(entries);
        }
        catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptionException("corrupt store facts record (system key 'store'): " + e
                    + ". Restore the store from a checkpoint or backup.", e);
        }
    }
}
