package io.moraine.cli;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.RowScope;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.verify.StoreVerifier;
import io.moraine.core.verify.VerifyProblem;
import io.moraine.core.verify.VerifyProblem.Check;
import io.moraine.core.verify.VerifyReport;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code bin/moraine verify} on stores imported from the DuckLake oracle workload (before its flush, with inlined
 * chunks, and after it, with flushed, merged and rewritten files, an expired snapshot and a dropped table): both
 * verify clean, every referenced file included; each corruption made below the catalog, through the store's own
 * key/value API, is reported as exactly that problem; a missing store is refused and left absent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VerifyCommandTest
{
    @TempDir
    static Path directory;

    private DuckLakeOracle oracle;
    private Path beforeFlush;
    private Path afterWorkload;

    @BeforeAll
    void setUp()
            throws Exception
    {
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.run(DuckLakeOracle.WORKLOAD_BEFORE_FLUSH);
        beforeFlush = importInto("before-flush");
        oracle.run(DuckLakeOracle.WORKLOAD_FROM_FLUSH);
        afterWorkload = importInto("after-workload");
    }

    private Path importInto(String name)
            throws Exception
    {
        Path store = directory.resolve(name);
        String copy = oracle.catalogCopy(directory.resolve(name + "-catalog.ducklake"));
        CatalogImporter.importCatalog(DuckLakeSource.parse(copy), StoreUri.parse(store.toString()), Optional.empty(), CatalogImporter.Progress.SILENT);
        return store;
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        if (oracle != null) {
            oracle.close();
        }
    }

    @Test
    void importedStoresVerifyCleanFilesIncluded()
    {
        VerifyReport before = verify(beforeFlush, "--check-files");
        assertThat(before.problems()).isEmpty();
        assertThat(before.checked("catalog rows")).isGreaterThan(100);
        assertThat(before.checked("inline chunks")).as("chunks decoded").isPositive();
        assertThat(before.checked("inlined rows")).isPositive();
        assertThat(before.checked("index entries")).isPositive();
        assertThat(before.checked("files")).isPositive();

        Map<Path, String> storeFiles = contents(afterWorkload);
        VerifyReport after = verify(afterWorkload, "--check-files");
        assertThat(contents(afterWorkload)).as("every file of the store, after verify").isEqualTo(storeFiles);
        assertThat(after.problems()).isEmpty();
        assertThat(after.checked("catalog rows")).isGreaterThan(before.checked("catalog rows"));
        assertThat(after.checked("files")).isGreaterThan(2);
        System.out.println("before flush: " + before.summary());
        System.out.println("after workload: " + after.summary());
    }

    @Test
    void aStoreFlushedByMoraineVerifiesClean()
            throws IOException
    {
        Path store = copy(beforeFlush, "flushed");
        assertThat(Main.run(new String[] {"flush", "--store", store.toString()})).isZero();
        VerifyReport report = verify(store, "--check-files");
        assertThat(report.problems()).isEmpty();
        assertThat(report.checked("inline chunks")).as("the flush drained every chunk").isZero();
        assertThat(report.checked("files")).isGreaterThan(verify(beforeFlush, "--check-files").checked("files"));
    }

    @Test
    void aDeletedSchemaRowIsReportedAsTheLiveRowsThatNameIt()
            throws IOException
    {
        Path store = copy(afterWorkload, "schema-deleted");
        List<String> referrers;
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE)) {
            Row sales = catalog.scan(TableKind.SCHEMA, RowScope.CURRENT).toList().stream()
                    .filter(row -> row.getString("schema_name").equals("sales")).findFirst().orElseThrow();
            long schemaId = sales.getLong("schema_id");
            referrers = Stream.of(TableKind.TABLE, TableKind.VIEW)
                    .flatMap(kind -> catalog.scan(kind, RowScope.CURRENT).toList().stream())
                    .filter(row -> row.getLong("schema_id") == schemaId)
                    .map(row -> "DANGLING_REFERENCE current/" + row.kind().tableName() + "(" + keyText(row) + "): names schema " + schemaId + ", which has no live row")
                    .toList();
            delete(catalog, RowKeys.key(Subspace.CURRENT, sales));
        }
        assertThat(referrers).as("the orders table and the big_orders view").hasSize(2);
        VerifyReport report = verifyFailing(store);
        assertThat(report.problems()).extracting(VerifyProblem::line).containsExactlyInAnyOrderElementsOf(referrers);
    }

    @Test
    void aHeadSnapshotWhoseFileCounterFallsBackIsReported()
            throws IOException
    {
        Path store = copy(afterWorkload, "counter-broken");
        long head;
        long lastFileId;
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE)) {
            head = catalog.headSnapshotId().orElseThrow();
            lastFileId = Stream.concat(catalog.scan(TableKind.DATA_FILE, RowScope.ALL).toList().stream().map(row -> row.getLong("data_file_id")),
                    catalog.scan(TableKind.DELETE_FILE, RowScope.ALL).toList().stream().map(row -> row.getLong("delete_file_id")))
                    .max(Long::compare).orElseThrow();
            Row snapshot = catalog.scan(TableKind.SNAPSHOT, RowScope.CURRENT).toList().stream()
                    .filter(row -> row.getLong("snapshot_id") == catalog.headSnapshotId().orElseThrow()).findFirst().orElseThrow();
            // The head now hands out an id a file already has.
            catalog.store().write(Map.of(ByteBuffer.wrap(RowKeys.key(Subspace.CURRENT, snapshot)),
                    io.moraine.core.keyspace.RowValueCodec.encode(snapshot.with("next_file_id", lastFileId))));
        }
        VerifyReport report = verifyFailing(store);
        assertThat(report.problems()).allSatisfy(problem -> assertThat(problem.check()).isEqualTo(Check.COUNTER));
        assertThat(report.problems()).extracting(VerifyProblem::line).anySatisfy(line -> assertThat(line)
                .startsWith("COUNTER current/ducklake_snapshot(snapshot_id=" + head + "): next_file_id " + lastFileId + " is not past file id " + lastFileId + " of "));
    }

    @Test
    void aLostFileChangeIndexEntryIsReportedForItsFile()
            throws IOException
    {
        Path store = copy(afterWorkload, "file-change-entry-lost");
        KeyValue entry;
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE)) {
            entry = first(catalog, Subspace.FILE_CHANGES.start());
            delete(catalog, entry.key());
        }
        VerifyReport report = verifyFailing(store);
        assertThat(report.problems()).hasSize(1);
        assertThat(report.problems().getFirst().check()).isEqualTo(Check.INDEX);
        assertThat(report.problems().getFirst().where()).matches("(current|history)/ducklake_(data|delete)_file\\(table_id=\\d+, (data|delete)_file_id=\\d+\\)");
        assertThat(report.problems().getFirst().detail()).isEqualTo("has no file-change index entry " + java.util.HexFormat.of().formatHex(entry.key()));
    }

    @Test
    void aChunkWhoseBodyIsCutShortIsReportedAloneAndALostLocatorToo()
            throws IOException
    {
        Path store = copy(beforeFlush, "chunk-corrupted");
        KeyValue chunk;
        KeyValue locator;
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE)) {
            chunk = first(catalog, InlineKeys.kindPrefix(InlineKeys.INSERT));
            locator = first(catalog, InlineKeys.kindPrefix(InlineKeys.CHUNK_LOCATOR));
            Map<ByteBuffer, byte[]> writes = new HashMap<>();
            // The 13-byte header (row id start, row count) stays; the Arrow body loses its second half.
            writes.put(ByteBuffer.wrap(chunk.key()), Arrays.copyOf(chunk.value(), 13 + (chunk.value().length - 13) / 2));
            catalog.store().write(writes);
        }
        VerifyReport report = verifyFailing(store);
        assertThat(report.problems()).hasSize(1);
        assertThat(report.problems().getFirst().check()).isEqualTo(Check.INLINE_CHUNK);
        assertThat(report.problems().getFirst().where()).isEqualTo(chunkName(InlineKeys.chunkOfInsert(chunk.key())));
        assertThat(report.problems().getFirst().detail()).contains("does not decode");

        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE)) {
            catalog.store().write(Map.of(ByteBuffer.wrap(chunk.key()), chunk.value()));
            delete(catalog, locator.key());
        }
        report = verifyFailing(store);
        assertThat(report.problems()).extracting(VerifyProblem::line)
                .containsExactly("INLINE_LOCATOR " + chunkName(InlineKeys.chunkOfLocator(locator.key())) + ": has no locator (expected one ending at row id "
                        + InlineKeys.component(locator.key(), 1) + ")");
    }

    @Test
    void aMissingDataFileIsReportedWithCheckFiles()
            throws IOException
    {
        Path data = copy(oracle.dataPath(), "data-copy");
        String removed;
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(afterWorkload.toString()), OpenMode.READ_ONLY);
                Stream<Path> files = Files.walk(data)) {
            // A file a live row names (relative to its table's directory), so that the catalog references it.
            String named = catalog.scan(TableKind.DATA_FILE, RowScope.CURRENT).toList().getFirst().getString("path");
            Path victim = files.filter(path -> path.toString().endsWith("/" + named)).findFirst().orElseThrow();
            removed = victim.toString();
            Files.delete(victim);
        }
        assertThat(verify(afterWorkload, "--data-path", oracle.dataPath().toString(), "--check-files").problems()).isEmpty();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThatThrownBy(() -> VerifyCommand.run(new String[] {"--store", afterWorkload.toString(), "--check-files", "--data-path", data.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8)))
                .isInstanceOf(CorruptionException.class).hasMessageContaining("1 of its invariants");
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.getFirst()).startsWith("MISSING_FILE ").endsWith(": " + removed + " does not exist");
        assertThat(lines.getLast()).contains("files").endsWith("; 1 problem");
    }

    @Test
    void exitStatusIsZeroCleanOneOnProblemsOrAMissingStoreTwoOnUsage()
            throws IOException
    {
        assertThat(Main.run(new String[] {"verify", "--store", afterWorkload.toString()})).isZero();
        Path store = copy(afterWorkload, "head-broken");
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE)) {
            catalog.store().write(Map.of(ByteBuffer.wrap(io.moraine.core.keyspace.SystemKeys.HEAD), new byte[] {1, 2, 3}));
        }
        assertThat(Main.run(new String[] {"verify", "--store", store.toString()})).isEqualTo(1);
        assertThat(Main.run(new String[] {"verify", "--store", afterWorkload.toString(), "--fix"})).isEqualTo(2);
        assertThat(Main.run(new String[] {"verify"})).isEqualTo(2);

        Path missing = directory.resolve("no-such-store");
        assertThat(Main.run(new String[] {"verify", "--store", missing.toString()})).isEqualTo(1);
        assertThat(missing).doesNotExist();
    }

    private static VerifyReport verify(Path store, String... options)
    {
        String[] args = Stream.concat(Stream.of("--store", store.toString()), Arrays.stream(options)).toArray(String[]::new);
        return VerifyCommand.run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    /** Verifies a store that must have problems: the command fails (exit status 1); returns the verifier's report. */
    private static VerifyReport verifyFailing(Path store)
    {
        assertThatThrownBy(() -> verify(store)).isInstanceOf(CorruptionException.class);
        return StoreVerifier.verify(StoreUri.parse(store.toString()), StoreOptions.DEFAULTS, StoreVerifier.Options.STORE_ONLY);
    }

    private static KeyValue first(MoraineCatalog catalog, byte[] prefix)
    {
        try (KeyValueCursor cursor = catalog.store().latest().scan(prefix, KeyWriter.prefixEnd(prefix), 1)) {
            return cursor.next();
        }
    }

    private static void delete(MoraineCatalog catalog, byte[] key)
    {
        Map<ByteBuffer, byte[]> writes = new HashMap<>();
        writes.put(ByteBuffer.wrap(key), null);
        catalog.store().write(writes);
    }

    private static String keyText(Row row)
    {
        StringBuilder text = new StringBuilder();
        for (int index : row.kind().keyColumnIndexes()) {
            text.append(text.isEmpty() ? "" : ", ").append(row.kind().columns().get(index).name()).append('=').append(row.get(index));
        }
        return text.toString();
    }

    private static String chunkName(io.moraine.core.inline.ChunkId chunk)
    {
        return "inline chunk (table " + chunk.tableId() + ", schema version " + chunk.schemaVersion() + ", begin snapshot "
                + chunk.beginSnapshot() + ", seq " + chunk.chunkSeq() + ")";
    }

    /** Every file under {@code directory} and a digest of its bytes. */
    private static Map<Path, String> contents(Path directory)
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            Map<Path, String> contents = new java.util.TreeMap<>();
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                contents.put(directory.relativize(path), java.util.HexFormat.of().formatHex(
                        java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(path))));
            }
            return contents;
        }
        catch (IOException | java.security.NoSuchAlgorithmException e) {
            throw new AssertionError("cannot read " + directory, e);
        }
    }

    private static Path copy(Path source, String name)
            throws IOException
    {
        Path target = directory.resolve(name);
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : paths.toList()) {
                Files.copy(path, target.resolve(source.relativize(path).toString()));
            }
        }
        return target;
    }
}
