package io.moraine.core.verify;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.store.KeyValueReader;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.SlateStore;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static io.moraine.core.verify.VerifyProblem.Check.FORMAT;
import static io.moraine.core.verify.VerifyProblem.Check.HEAD;
import static io.moraine.core.verify.VerifyProblem.Check.STORE_FACTS;
import static java.util.Objects.requireNonNull;

/**
 * Checks a store's invariants without changing it (docs/format.md): the format record, the store facts, the head and
 * the id counters, every catalog row (decoding, placement, references of live rows), the primary-key, snapshot-time
 * and file-change indexes, the inline subspace (schemas, chunks decoding against them, locators), the tiny-file copies,
 * and optionally the data and delete files under the data path (and that each copy holds its file's bytes). Every problem found is reported; nothing stops at the first.
 */
public final class StoreVerifier
{
    /** What to check besides the store itself. */
    public record Options(Optional<LakeFileSystem> files, Optional<String> dataPath)
    {
        public static final Options STORE_ONLY = new Options(Optional.empty(), Optional.empty());

        public Options
        {
            requireNonNull(files, "files is null");
            requireNonNull(dataPath, "dataPath is null");
        }

        /** Also checks that every referenced data and delete file exists, reached through {@code fileSystem}. */
        public Options withFiles(LakeFileSystem fileSystem)
        {
            return new Options(Optional.of(fileSystem), dataPath);
        }

        /** Resolves file paths under {@code path} instead of the catalog's data_path (a moved lake). */
        public Options withDataPath(String path)
        {
            return new Options(files, Optional.of(path));
        }
    }

    /** The format version that added the snapshot-time index (docs/format.md, "Format versions"). */
    private static final int SNAPSHOT_TIME_INDEX_FORMAT = 2;
    /** The format version that added the file-change index. */
    private static final int FILE_CHANGE_INDEX_FORMAT = 3;

    private StoreVerifier() {}

    /**
     * Opens the existing store at {@code uri} as a reader that writes nothing at all and verifies it:
     * {@link OpenMode#CHECKPOINT} when {@code storeOptions} names a checkpoint (a fixed cut), else
     * {@link OpenMode#UNPINNED}, which follows a writer that commits meanwhile (and keeps no checkpoint against its
     * garbage collection), so verify a store nobody writes, or a checkpoint of it. A missing store is refused with
     * {@link io.moraine.core.error.StoreNotFoundException} and nothing is created.
     */
    public static VerifyReport verify(StoreUri uri, StoreOptions storeOptions, Options options)
    {
        OpenMode mode = storeOptions.checkpointId().isPresent() ? OpenMode.CHECKPOINT : OpenMode.UNPINNED;
        StoreOptions reading = storeOptions.withoutCreateIfMissing();
        try (SlateStore store = SlateStore.open(uri, mode, reading)) {
            return verify(store.latest(), options);
        }
    }

    /** Verifies what {@code reader} reads. */
    public static VerifyReport verify(KeyValueReader reader, Options options)
    {
        Findings findings = new Findings();
        int formatVersion = checkFormat(reader, findings);
        Optional<StoreFacts> facts = checkFacts(reader, findings);
        OptionalLong head = readHead(reader, findings);

        CatalogRowChecks catalog = new CatalogRowChecks(reader, findings, head);
        catalog.run();
        IndexChecks indexes = new IndexChecks(reader, findings);
        indexes.run(catalog.expectedIndexEntries(), formatVersion >= SNAPSHOT_TIME_INDEX_FORMAT);
        if (formatVersion >= FILE_CHANGE_INDEX_FORMAT) {
            indexes.runFileChanges(catalog.files());
        }
        new InlineChecks(reader, findings, catalog, head).run();
        Map<TinyFileChecks.FileKey, byte[]> copies = new TinyFileChecks(reader, findings).run(catalog);
        catalog.checkNextRowIds();
        if (options.files().isPresent()) {
            Optional<String> dataPath = options.dataPath().or(() -> facts.map(f -> f.get(StoreFacts.DATA_PATH)));
            if (dataPath.isEmpty()) {
                findings.problem(STORE_FACTS, "system/store", "has no data_path, so no file path resolves; pass a data path to check the files");
            }
            else {
                String path = dataPath.get().endsWith("/") ? dataPath.get() : dataPath.get() + "/";
                new FileChecks(options.files().get(), findings).run(catalog, path, reader, copies);
            }
        }
        return findings.report();
    }

    private static int checkFormat(KeyValueReader reader, Findings findings)
    {
        byte[] format = reader.get(SystemKeys.FORMAT);
        if (format == null) {
            findings.problem(FORMAT, "system/format", "missing: this store holds no moraine catalog (or lost its format record)");
            return 0;
        }
        try {
            int version = SystemKeys.decodeFormatVersion(format);
            if (version < 1 || version > MoraineCatalog.FORMAT_VERSION) {
                findings.problem(FORMAT, "system/format", "format version " + version + " is not one this moraine (" + MoraineCatalog.VERSION
                        + ") reads: 1 to " + MoraineCatalog.FORMAT_VERSION);
            }
            return version;
        }
        catch (CorruptionException e) {
            findings.problem(FORMAT, "system/format", e.getMessage());
            return 0;
        }
    }

    private static Optional<StoreFacts> checkFacts(KeyValueReader reader, Findings findings)
    {
        byte[] value = reader.get(SystemKeys.STORE_FACTS);
        if (value == null) {
            findings.problem(STORE_FACTS, "system/store", "missing: ducklake_metadata's version, created_by, data_path and encrypted are gone");
            return Optional.empty();
        }
        try {
            StoreFacts facts = StoreFacts.decode(value);
            if (!StoreFacts.DUCKLAKE_FORMAT.equals(facts.get(StoreFacts.VERSION))) {
                findings.problem(STORE_FACTS, "system/store", "DuckLake format '" + facts.get(StoreFacts.VERSION) + "' is not " + StoreFacts.DUCKLAKE_FORMAT);
            }
            if (facts.get(StoreFacts.DATA_PATH) == null) {
                findings.problem(STORE_FACTS, "system/store", "has no data_path");
            }
            return Optional.of(facts);
        }
        catch (CorruptionException e) {
            findings.problem(STORE_FACTS, "system/store", e.getMessage());
            return Optional.empty();
        }
    }

    private static OptionalLong readHead(KeyValueReader reader, Findings findings)
    {
        byte[] value = reader.get(SystemKeys.HEAD);
        if (value == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(SystemKeys.decodeHead(value));
        }
        catch (CorruptionException e) {
            findings.problem(HEAD, "system/head", e.getMessage());
            return OptionalLong.empty();
        }
    }
}
