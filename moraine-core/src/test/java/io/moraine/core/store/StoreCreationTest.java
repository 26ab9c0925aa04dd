package io.moraine.core.store;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.error.StoreNotFoundException;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Only an explicit creation makes a store: every other open of a location where no store exists fails with
 * {@link StoreNotFoundException} and leaves the location exactly as it was, locally and on S3.
 */
class StoreCreationTest
{
    @TempDir
    Path temp;

    /** Every way of opening a store or a catalog that must not create one. */
    private static List<Consumer<StoreUri>> opensThatMustNotCreate()
    {
        String checkpoint = UUID.randomUUID().toString();
        return List.of(
                uri -> SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS).close(),
                uri -> SlateStore.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS).close(),
                uri -> SlateStore.open(uri, OpenMode.CHECKPOINT, StoreOptions.DEFAULTS.withCheckpoint(checkpoint)).close(),
                uri -> MoraineCatalog.open(uri, OpenMode.READ_WRITE).close(),
                // A catalog open never creates, even when asked to.
                uri -> MoraineCatalog.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing()).close(),
                uri -> MoraineCatalog.open(uri, OpenMode.READ_ONLY).close(),
                uri -> MoraineCatalog.open(uri, OpenMode.CHECKPOINT, StoreOptions.DEFAULTS.withCheckpoint(checkpoint)).close());
    }

    @Test
    void aMistypedLocalPathIsRefusedAndLeftAbsent()
            throws Exception
    {
        Path parent = Files.createDirectory(temp.resolve("lakes"));
        Path mistyped = parent.resolve("catalgo");
        StoreUri uri = StoreUri.parse(mistyped.toString());
        int refused = 0;
        for (Consumer<StoreUri> open : opensThatMustNotCreate()) {
            assertThatThrownBy(() -> open.accept(uri))
                    .isInstanceOf(StoreNotFoundException.class)
                    .hasMessageContaining("no moraine store exists at " + uri)
                    .hasMessageContaining("nothing was written")
                    .hasMessageContaining("bin/moraine import");
            assertThat(mistyped).doesNotExist();
            try (var entries = Files.list(parent)) {
                assertThat(entries).isEmpty();
            }
            refused++;
        }
        assertThat(refused).isEqualTo(7);
        assertThat(SlateStore.exists(uri, StoreOptions.DEFAULTS)).isFalse();
        assertThat(mistyped).doesNotExist();
    }

    @Test
    void aMistypedS3PrefixIsRefusedAndTheBucketIsLeftUnchanged()
            throws Exception
    {
        S3ProxyServer s3 = S3ProxyServer.shared();
        String bucket = s3.createBucket("moraine-creation-test");
        StoreUri existing = StoreUri.parse("s3://" + bucket + "/catalogs/real");
        MoraineCatalog.create(existing, NewCatalog.bootstrapped("s3://" + bucket + "/data")).close();
        Map<String, Long> before = s3.objects(bucket, "");
        assertThat(before).isNotEmpty();

        StoreUri mistyped = StoreUri.parse("s3://" + bucket + "/catalogs/rael");
        int refused = 0;
        for (Consumer<StoreUri> open : opensThatMustNotCreate()) {
            assertThatThrownBy(() -> open.accept(mistyped))
                    .isInstanceOf(StoreNotFoundException.class)
                    .hasMessageContaining("no moraine store exists at " + mistyped)
                    .hasMessageContaining("bucket '" + bucket + "'");
            assertThat(s3.objects(bucket, "")).isEqualTo(before);
            refused++;
        }
        assertThat(refused).isEqualTo(7);
        assertThat(SlateStore.exists(existing, StoreOptions.DEFAULTS)).isTrue();
        assertThat(SlateStore.exists(mistyped, StoreOptions.DEFAULTS)).isFalse();
    }

    @Test
    void aStorePathThatIsAFileIsRefusedAtOnce()
            throws Exception
    {
        Path file = Files.writeString(temp.resolve("catalog.ducklake"), "a DuckDB file");
        StoreUri uri = StoreUri.parse(file.toString());
        assertThatThrownBy(() -> SlateStore.holdsData(uri, StoreOptions.DEFAULTS))
                .isInstanceOf(io.moraine.core.error.InvalidArgumentException.class)
                .hasMessageContaining("is a file, not a directory");
    }

    @Test
    void creationIsExplicit()
    {
        StoreUri uri = StoreUri.parse(temp.resolve("new-store").toString());
        assertThat(SlateStore.exists(uri, StoreOptions.DEFAULTS)).isFalse();
        // A store on its own: only with createIfMissing.
        SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing()).close();
        assertThat(SlateStore.exists(uri, StoreOptions.DEFAULTS)).isTrue();
        // Once it exists, plain opens find it.
        SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS).close();
        SlateStore.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS).close();

        StoreUri catalogUri = StoreUri.parse(temp.resolve("new-catalog").toString());
        MoraineCatalog.create(catalogUri, NewCatalog.bootstrapped(temp.resolve("data").toString())).close();
        try (MoraineCatalog catalog = MoraineCatalog.open(catalogUri, OpenMode.READ_ONLY)) {
            assertThat(catalog.headSnapshotId()).hasValue(0L);
        }
        // openOrCreate: creates where nothing is, opens what is there.
        StoreUri attached = StoreUri.parse(temp.resolve("attached").toString());
        try (MoraineCatalog catalog = MoraineCatalog.openOrCreate(attached, NewCatalog.bootstrapped(temp.resolve("data").toString()), StoreOptions.DEFAULTS)) {
            assertThat(catalog.headSnapshotId()).hasValue(0L);
        }
        try (MoraineCatalog catalog = MoraineCatalog.openOrCreate(attached, NewCatalog.bootstrapped("/elsewhere"), StoreOptions.DEFAULTS)) {
            assertThat(catalog.facts().get("data_path")).isEqualTo(temp.resolve("data") + "/");
        }
    }
}
