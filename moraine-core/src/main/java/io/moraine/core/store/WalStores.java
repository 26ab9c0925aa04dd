package io.moraine.core.store;

import io.moraine.core.error.InvalidArgumentException;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Where a store's write-ahead log lives, as the store records it: {@code none} (in the catalog store itself) or the
 * WAL store's URI in canonical form. The record is a key of its own, {@link #RECORD_KEY}, above every catalog subspace
 * (catalog scans end before {@code 0xFF}), written when the store is created and flushed into an SST at once, so that
 * it can be read without replaying any log — in particular without trusting the log location being checked.
 */
public final class WalStores
{
    /** Outside the catalog's key space: every catalog subspace tag is below {@code 0xFF}. */
    static final byte[] RECORD_KEY = {(byte) 0xFF, 'w', 'a', 'l', '_', 's', 't', 'o', 'r', 'e'};
    public static final String NONE = "none";

    private WalStores() {}

    /** The canonical form of a WAL location, as recorded: {@link #NONE} for the catalog store itself. */
    public static String canonical(Optional<StoreUri> wal)
    {
        if (wal.isEmpty()) {
            return NONE;
        }
        StoreUri uri = wal.get();
        return switch (uri.scheme()) {
            case FILE -> "/" + uri.dbPath();
            case S3 -> uri.dbPath().isEmpty() ? uri.objectStoreUrl() : uri.objectStoreUrl() + "/" + uri.dbPath();
            case MEMORY -> "memory://" + uri.memoryName();
        };
    }

    static byte[] encode(Optional<StoreUri> wal)
    {
        return canonical(wal).getBytes(StandardCharsets.UTF_8);
    }

    static String decode(byte[] value)
    {
        return new String(value, StandardCharsets.UTF_8);
    }

    /** In words for a message: where a recorded or given location puts the log. */
    static String describe(String canonical)
    {
        return canonical.equals(NONE) ? "none (the log is in the catalog store)" : "'" + canonical + "'";
    }

    /**
     * Refuses a WAL location nested in the lake's data path: DuckLake's orphaned-file cleanup lists that root and would
     * delete log objects holding commits no SST carries yet. A data path moraine cannot parse (another scheme) is not
     * compared.
     */
    public static void requireOutsideDataPath(Optional<StoreUri> wal, String dataPath)
    {
        if (wal.isEmpty() || dataPath == null || dataPath.isBlank()) {
            return;
        }
        StoreUri data;
        try {
            data = StoreUri.parse(dataPath);
        }
        catch (InvalidArgumentException e) {
            return;
        }
        StoreUri log = wal.get();
        if (data.scheme() != log.scheme() || !data.objectStoreUrl().equals(log.objectStoreUrl()) || data.scheme() == StoreUri.Scheme.MEMORY) {
            return;
        }
        String root = data.dbPath();
        if (root.isEmpty() || log.dbPath().equals(root) || log.dbPath().startsWith(root + "/")) {
            throw new InvalidArgumentException("the WAL store " + log + " is inside the lake's DATA_PATH " + dataPath
                    + ": DuckLake's orphaned-file cleanup lists that path and would delete log objects holding commits not yet in the "
                    + "catalog's SSTs. Put the write-ahead log outside the data path.");
        }
    }
}
