package io.moraine.core.tx;

import io.moraine.core.store.KeyValueReader;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.SlateStore;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The committer's read cache answers repeated reads from memory and follows every batch the committer applies. */
class CommitterReadCacheTest
{
    @Test
    void repeatedReadsCostOneStoreReadAndAppliedBatchesUpdateTheCache()
    {
        AtomicInteger storeReads = new AtomicInteger();
        StoreOptions counting = StoreOptions.DEFAULTS.withReadListener(new io.moraine.core.store.StoreReadListener()
        {
            @Override
            public void pointRead(byte[] key)
            {
                storeReads.incrementAndGet();
            }

            @Override
            public void rangeScan(byte[] start, byte[] end) {}
        });
        try (SlateStore store = SlateStore.open(StoreUri.parse("memory:///committer-cache"), OpenMode.READ_WRITE, counting.withCreateIfMissing())) {
            store.write(Map.of(key("a"), bytes("1")));
            CommitterReadCache cache = new CommitterReadCache();
            KeyValueReader reader = cache.over(store.latestIncludingPending());

            assertThat(reader.get(bytes("a"))).isEqualTo(bytes("1"));
            assertThat(reader.get(bytes("a"))).isEqualTo(bytes("1"));
            assertThat(reader.get(bytes("missing"))).isNull();
            assertThat(reader.get(bytes("missing"))).isNull();
            assertThat(storeReads.get()).as("one store read per key, present or absent").isEqualTo(2);

            Map<ByteBuffer, byte[]> batch = new HashMap<>();
            batch.put(key("a"), null);
            batch.put(key("missing"), bytes("2"));
            batch.put(key("large"), new byte[CommitterReadCache.MAX_VALUE_BYTES + 1]);
            store.write(batch);
            cache.applied(batch);
            assertThat(reader.get(bytes("a"))).isNull();
            assertThat(reader.get(bytes("missing"))).isEqualTo(bytes("2"));
            assertThat(storeReads.get()).isEqualTo(2);
            assertThat(reader.get(bytes("large"))).hasSize(CommitterReadCache.MAX_VALUE_BYTES + 1);
            assertThat(storeReads.get()).as("large values are read from the store, not kept").isEqualTo(3);
        }
    }

    private static ByteBuffer key(String text)
    {
        return ByteBuffer.wrap(bytes(text));
    }

    private static byte[] bytes(String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
