package io.moraine.duckdb.ext;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreTimeouts;
import io.moraine.core.store.StoreUri;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The options the shim passes with a store: ATTACH's own (checkpoint, wal_path, store_timeout) and, for a store on
 * S3, the DuckDB secret that matched its path ({@code secret.<key>}) and the WAL store's ({@code wal_secret.<key>}).
 * They arrive as one array of alternating keys and values.
 */
record AttachOptions(Map<String, String> values)
{

    static AttachOptions of(String[] keysAndValues)
    {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("attach options come as key/value pairs, got " + keysAndValues.length + " strings");
        }
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            values.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new AttachOptions(Map.copyOf(values));
    }

    Optional<String> get(String key)
    {
        return Optional.ofNullable(values.get(key)).filter(value -> !value.isEmpty());
    }

    /** {@code options} with the store timeout and the S3 settings of the store's and the WAL store's secrets. */
    StoreOptions applyTo(StoreOptions options, StoreUri store)
    {
        StoreOptions result = options;
        Optional<String> timeout = get("store_timeout");
        if (timeout.isPresent()) {
            result = result.withTimeout(duration(timeout.get()));
        }
        result = withSecret(result, store, "secret.");
        if (result.walStore().isPresent()) {
            result = withSecret(result, result.walStore().get(), "wal_secret.");
        }
        return result;
    }

    private StoreOptions withSecret(StoreOptions options, StoreUri store, String prefix)
    {
        Map<String, String> secret = new HashMap<>();
        values.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                secret.put(key.substring(prefix.length()), value);
            }
        });
        if (secret.isEmpty() || store.scheme() != StoreUri.Scheme.S3) {
            return options;
        }
        return options.withS3Settings(store, DuckDbS3Secret.settings(secret));
    }

    /** The keys only: the values include the secret's. */
    @Override
    public String toString()
    {
        return "AttachOptions" + new TreeSet<>(values.keySet());
    }

    /** {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h}, or whole seconds (the shim passes an INTERVAL as such text). */
    static Duration duration(String text)
    {
        try {
            return StoreTimeouts.parse("STORE_TIMEOUT", text);
        }
        catch (IllegalArgumentException e) {
            throw new InvalidArgumentException(e.getMessage() + " (or an INTERVAL)");
        }
    }
}
