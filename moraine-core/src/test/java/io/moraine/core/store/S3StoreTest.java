package io.moraine.core.store;

import io.moraine.core.error.FencedException;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.UUID;

import static io.moraine.core.store.SlateStoreTest.awaitKey;
import static io.moraine.core.store.SlateStoreTest.key;
import static io.moraine.core.store.SlateStoreTest.scanKeys;
import static io.moraine.core.store.SlateStoreTest.text;
import static io.moraine.core.store.SlateStoreTest.writeNumbered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** SlateDB on s3:// against a real S3 server (S3Proxy) on 127.0.0.1. */
class S3StoreTest
{
    private static String bucket;

    @BeforeAll
    static void startS3()
            throws Exception
    {
        bucket = S3ProxyServer.shared().createBucket("moraine-store-test");
    }

    @Test
    void writesReopensFollowsPinsAndFencesOnS3()
            throws Exception
    {
        StoreUri uri = StoreUri.parse("s3://" + bucket + "/catalogs/" + UUID.randomUUID());
        try (SlateStore writer = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
            writeNumbered(writer, 0, 50);
        }
        try (SlateStore writer = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
            assertThat(scanKeys(writer.latest(), key(0), key(1000), 16)).hasSize(50);

            try (SlateStore reader = SlateStore.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS)) {
                writeNumbered(writer, 50, 60);
                awaitKey(reader, key(59));
                assertThat(text(reader.latest().get(key(55)))).isEqualTo("value-55");
            }

            CheckpointInfo checkpoint = writer.createCheckpoint(Optional.empty(), Optional.empty());
            writeNumbered(writer, 60, 70);
            try (SlateStore pinned = SlateStore.open(uri, OpenMode.CHECKPOINT, StoreOptions.DEFAULTS.withCheckpoint(checkpoint.id()))) {
                assertThat(scanKeys(pinned.latest(), key(0), key(1000), 100)).hasSize(60);
            }

            try (SlateStore usurper = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
                assertThatThrownBy(() -> writeNumbered(writer, 70, 71)).isInstanceOf(FencedException.class);
                assertThat(scanKeys(usurper.latest(), key(0), key(1000), 100)).hasSize(70);
            }
        }
    }

    @Test
    void aStoreAtTheBucketRootWorks()
    {
        String rootBucket = S3ProxyServer.sharedUnchecked().createBucket("moraine-root-" + UUID.randomUUID().toString().substring(0, 8));
        StoreUri uri = StoreUri.parse("s3://" + rootBucket);
        try (SlateStore writer = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
            writeNumbered(writer, 0, 3);
            assertThat(text(writer.latest().get(key(2)))).isEqualTo("value-2");
        }
    }
}
