package io.moraine.core.catalog;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.WalStoreMismatchException;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.CommitListener;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static io.moraine.core.catalog.CatalogOpenTest.appendFiles;
import static io.moraine.core.catalog.CatalogOpenTest.awaitHead;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where a separate write-ahead log goes, and that a store is only ever opened with the log it records. */
class WalStoreLocationTest
{
    private static S3ProxyServer s3;

    @TempDir
    Path temp;

    @BeforeAll
    static void startS3()
            throws Exception
    {
        s3 = S3ProxyServer.shared();
    }

    private static String bucket(String name)
    {
        return s3.createBucket(name + "-" + UUID.randomUUID().toString().substring(0, 8));
    }

    @Test
    void aLocalWalDirectoryHoldsTheLogUnderItsOwnPathAndOnlyThere()
            throws Exception
    {
        Path catalogDir = temp.resolve("catalog");
        Path walDir = temp.resolve("logs/lake-a");
        StoreUri uri = StoreUri.parse(catalogDir.toString());
        StoreOptions options = StoreOptions.DEFAULTS.withWalStore(StoreUri.parse(walDir.toString()));
        try (MoraineCatalog writer = MoraineCatalog.create(uri, NewCatalog.bootstrapped("/d"), options, List.of(), CommitListener.NONE)) {
            appendFiles(writer, 3);
        }
        List<String> walObjects = files(walDir);
        assertThat(walObjects).isNotEmpty()
                .allSatisfy(path -> assertThat(path).startsWith(catalogDir.toString().substring(1) + "/wal/"));
        assertThat(files(catalogDir)).noneMatch(path -> path.startsWith("wal/"));
        assertThat(files(temp)).filteredOn(path -> path.contains("/wal/"))
                .allSatisfy(path -> assertThat(path).startsWith("logs/lake-a/"));

        try (MoraineCatalog reopened = MoraineCatalog.open(uri, OpenMode.READ_WRITE, options)) {
            assertThat(reopened.headSnapshotId()).hasValue(3);
        }
        assertThatThrownBy(() -> MoraineCatalog.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS))
                .isInstanceOf(WalStoreMismatchException.class)
                .hasMessageContaining("'" + walDir + "'")
                .hasMessageContaining("names none");
    }

    @Test
    void anS3WalBucketHoldsTheLogAndEveryOtherWalLocationIsRefused()
            throws Exception
    {
        String catalogBucket = bucket("lake");
        String walBucket = bucket("lake-wal");
        String otherBucket = bucket("other-wal");
        StoreUri uri = StoreUri.parse("s3://" + catalogBucket + "/warehouse");
        StoreOptions options = StoreOptions.DEFAULTS.withWalStore(StoreUri.parse("s3://" + walBucket));
        try (MoraineCatalog writer = MoraineCatalog.create(uri, NewCatalog.bootstrapped("s3://" + catalogBucket + "/data/"), options, List.of(), CommitListener.NONE)) {
            appendFiles(writer, 3);
        }
        Map<String, Long> walObjects = s3.objects(walBucket, "");
        assertThat(walObjects.keySet()).isNotEmpty().allSatisfy(key -> assertThat(key).startsWith("warehouse/wal/"));
        assertThat(s3.objects(catalogBucket, "").keySet()).noneMatch(key -> key.contains("/wal/"));

        try (MoraineCatalog reopened = MoraineCatalog.open(uri, OpenMode.READ_WRITE, options)) {
            assertThat(reopened.headSnapshotId()).hasValue(3);
            appendFiles(reopened, 1);
        }
        try (MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, options)) {
            awaitHead(reader, 4);
        }
        Map<String, Long> catalogBefore = s3.objects(catalogBucket, "");
        for (OpenMode mode : List.of(OpenMode.READ_WRITE, OpenMode.READ_ONLY)) {
            assertThatThrownBy(() -> MoraineCatalog.open(uri, mode, StoreOptions.DEFAULTS.withWalStore(StoreUri.parse("s3://" + otherBucket))))
                    .isInstanceOf(WalStoreMismatchException.class)
                    .hasMessageContaining("records its write-ahead log at 's3://" + walBucket + "'")
                    .hasMessageContaining("names 's3://" + otherBucket + "'");
            assertThatThrownBy(() -> MoraineCatalog.open(uri, mode, StoreOptions.DEFAULTS))
                    .isInstanceOf(WalStoreMismatchException.class)
                    .hasMessageContaining("'s3://" + walBucket + "'")
                    .hasMessageContaining("names none");
        }
        assertThat(s3.objects(otherBucket, "")).as("a refused open writes nothing to the log it named").isEmpty();
        assertThat(s3.objects(catalogBucket, "")).as("nor to the catalog store").isEqualTo(catalogBefore);
        try (MoraineCatalog reopened = MoraineCatalog.open(uri, OpenMode.READ_WRITE, options)) {
            assertThat(reopened.headSnapshotId()).hasValue(4);
        }
    }

    @Test
    void aStoreWithItsLogInsideIsRefusedALogStore()
    {
        String catalogBucket = bucket("lake");
        String walBucket = bucket("lake-wal");
        StoreUri uri = StoreUri.parse("s3://" + catalogBucket + "/warehouse");
        try (MoraineCatalog writer = MoraineCatalog.create(uri, NewCatalog.bootstrapped("s3://" + catalogBucket + "/data/"), StoreOptions.DEFAULTS, List.of(), CommitListener.NONE)) {
            appendFiles(writer, 2);
        }
        assertThatThrownBy(() -> MoraineCatalog.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withWalStore(StoreUri.parse("s3://" + walBucket))))
                .isInstanceOf(WalStoreMismatchException.class)
                .hasMessageContaining("records its write-ahead log at none")
                .hasMessageContaining("names 's3://" + walBucket + "'");
        assertThat(s3.objects(walBucket, "")).isEmpty();
        try (MoraineCatalog reopened = MoraineCatalog.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS)) {
            assertThat(reopened.headSnapshotId()).hasValue(2);
        }
    }

    @Test
    void anS3WalPrefixTheBindingCannotHonorIsRefusedBeforeAnythingIsWritten()
    {
        String catalogBucket = bucket("lake");
        String walBucket = bucket("lake-wal");
        StoreUri uri = StoreUri.parse("s3://" + catalogBucket + "/warehouse");
        StoreOptions options = StoreOptions.DEFAULTS.withWalStore(StoreUri.parse("s3://" + walBucket + "/logs"));
        assertThatThrownBy(() -> MoraineCatalog.create(uri, NewCatalog.bootstrapped("s3://" + catalogBucket + "/data/"), options, List.of(), CommitListener.NONE))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("has a prefix ('logs')");
        assertThat(s3.objects(walBucket, "")).isEmpty();
        assertThat(s3.objects(catalogBucket, "")).isEmpty();
    }

    @Test
    void aWalInsideTheDataPathIsRefused()
    {
        String bucket = bucket("lake");
        StoreUri uri = StoreUri.parse("s3://" + bucket + "/warehouse");
        assertThatThrownBy(() -> MoraineCatalog.create(uri, NewCatalog.bootstrapped("s3://" + bucket + "/"),
                StoreOptions.DEFAULTS.withWalStore(StoreUri.parse("s3://" + bucket)), List.of(), CommitListener.NONE))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("inside the lake's DATA_PATH");
        assertThat(s3.objects(bucket, "")).isEmpty();

        Path data = temp.resolve("data");
        StoreUri local = StoreUri.parse(temp.resolve("catalog").toString());
        StoreOptions nested = StoreOptions.DEFAULTS.withWalStore(StoreUri.parse(data.resolve("wal").toString()));
        assertThatThrownBy(() -> MoraineCatalog.create(local, NewCatalog.bootstrapped(data.toString()), nested, List.of(), CommitListener.NONE))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("inside the lake's DATA_PATH");
        // An existing lake opened with a log inside its recorded data path is refused too.
        StoreOptions outside = StoreOptions.DEFAULTS.withWalStore(StoreUri.parse(temp.resolve("wal").toString()));
        try (MoraineCatalog writer = MoraineCatalog.create(local, NewCatalog.bootstrapped(temp.resolve("data2").toString()), outside, List.of(), CommitListener.NONE)) {
            appendFiles(writer, 1);
        }
        assertThatThrownBy(() -> MoraineCatalog.open(local, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withWalStore(StoreUri.parse(temp.resolve("data2/logs").toString()))))
                .isInstanceOf(InvalidArgumentException.class);
    }

    private static List<String> files(Path directory)
            throws IOException
    {
        if (!Files.exists(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).map(file -> directory.relativize(file).toString()).sorted().toList();
        }
    }
}
