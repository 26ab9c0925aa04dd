package io.moraine.core.inline.read;

import io.moraine.core.store.KeyValueReader;
import org.apache.arrow.memory.BufferAllocator;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads DuckLake's inlined rows of one table from a moraine store, across every schema version, as Arrow batches.
 * Read through one consistent view (a {@code CatalogSnapshot}'s or a store snapshot's reader) so that the rows agree
 * with the file list read beside them.
 */
public final class InlineReader
{
    public static final int DEFAULT_WINDOW_ROWS = 8192;

    private InlineReader() {}

    /**
     * Opens a scan of table {@code tableId}. {@code projection} names the user columns to return (empty: all;
     * an empty list: none, for counts and row-id-only reads).
     */
    public static InlineScan scan(KeyValueReader reader, long tableId, InlineSelection selection, Optional<List<String>> projection,
            int windowRows, BufferAllocator allocator)
    {
        return open(reader, tableId, java.util.OptionalLong.empty(), selection, projection, windowRows, allocator);
    }

    /**
     * Opens a scan of one inlined table, {@code ducklake_inlined_data_<tableId>_<schemaVersion>}: only the chunks
     * of that version (deletion events still resolve across versions).
     */
    public static InlineScan scanVersion(KeyValueReader reader, long tableId, long schemaVersion, InlineSelection selection,
            Optional<List<String>> projection, int windowRows, BufferAllocator allocator)
    {
        return open(reader, tableId, java.util.OptionalLong.of(schemaVersion), selection, projection, windowRows, allocator);
    }

    /** {@link #scan}, reading chunk bodies through {@code cache} (shared by the scans of one store). */
    public static InlineScan scan(KeyValueReader reader, long tableId, InlineSelection selection, Optional<List<String>> projection,
            int windowRows, BufferAllocator allocator, ChunkBodyCache cache)
    {
        requireNonNull(cache, "cache is null");
        InlineDirectory directory = InlineDirectory.load(reader, tableId, selection.needsEnds()).withCache(cache);
        return new InlineScan(directory, selection, java.util.OptionalLong.empty(), projection, windowRows, allocator);
    }

    private static InlineScan open(KeyValueReader reader, long tableId, java.util.OptionalLong schemaVersion, InlineSelection selection,
            Optional<List<String>> projection, int windowRows, BufferAllocator allocator)
    {
        requireNonNull(reader, "reader is null");
        requireNonNull(selection, "selection is null");
        requireNonNull(allocator, "allocator is null");
        if (windowRows <= 0) {
            throw new io.moraine.core.error.InvalidArgumentException("windowRows must be positive, was " + windowRows);
        }
        InlineDirectory directory = InlineDirectory.load(reader, tableId, selection.needsEnds());
        return new InlineScan(directory, selection, schemaVersion, projection, windowRows, allocator);
    }
}
