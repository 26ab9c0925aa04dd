package io.moraine.core.verify;

import io.moraine.core.row.TableKind;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.keyspace.FileChangeKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.TinyFileKeys;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;

import static io.moraine.core.verify.VerifyProblem.Check.TINY_FILE;

/**
 * Every tiny-file copy (subspace {@code 0x07}) decodes, is whole, and is of a file row that exists (current or
 * history) in the table its key names, taken at the size that row records. The copies found good are handed to the
 * file checks, which compare them with the files' bytes.
 */
final class TinyFileChecks
{
    static final String COPIES = "tiny-file copies";
    private static final int PAGE = 256;

    /** A data or delete file by kind and id: a copy's file row. */
    record FileKey(TableKind kind, long fileId)
    {
        static FileKey of(CatalogRowChecks.FileRow file)
        {
            return new FileKey(file.row().kind(), FileChangeKeys.fileId(file.row()));
        }
    }

    private final KeyValueReader reader;
    private final Findings findings;

    TinyFileChecks(KeyValueReader reader, Findings findings)
    {
        this.reader = reader;
        this.findings = findings;
    }

    /** Checks every copy; returns the good ones' keys by their file. */
    Map<FileKey, byte[]> run(CatalogRowChecks catalog)
    {
        findings.expect(COPIES);
        Map<FileKey, CatalogRowChecks.FileRow> rows = new HashMap<>();
        for (CatalogRowChecks.FileRow file : catalog.files()) {
            rows.put(FileKey.of(file), file);
        }
        Map<FileKey, byte[]> good = new HashMap<>();
        try (KeyValueCursor cursor = reader.scan(Subspace.TINY_FILES.start(), Subspace.TINY_FILES.end(), PAGE)) {
            while (cursor.hasNext()) {
                KeyValue copy = cursor.next();
                findings.checked(COPIES);
                String where = "tiny-file copy " + HexFormat.of().formatHex(copy.key());
                TinyFileKeys.CopyId id;
                long recordedSize;
                try {
                    id = TinyFileKeys.idOf(copy.key());
                    recordedSize = TinyFileKeys.recordedSize(copy.key(), copy.value());
                }
                catch (CorruptionException e) {
                    findings.problem(TINY_FILE, where, e.getMessage());
                    continue;
                }
                where = "tiny-file copy of " + (id.kind() == TableKind.DATA_FILE ? "data" : "delete") + " file " + id.fileId();
                if (!TinyFileKeys.isWhole(copy.key(), copy.value())) {
                    findings.problem(TINY_FILE, where, "holds " + (copy.value().length - TinyFileKeys.HEADER_BYTES) + " bytes, its header says "
                            + recordedSize + "; readers ignore it, and bin/moraine tiny-files sweep removes it");
                    continue;
                }
                FileKey key = new FileKey(id.kind(), id.fileId());
                CatalogRowChecks.FileRow file = rows.get(key);
                if (file == null) {
                    findings.problem(TINY_FILE, where, "its file has no row (current or history); bin/moraine tiny-files sweep removes it");
                    continue;
                }
                if (!Objects.equals(file.tableId(), id.tableId())) {
                    findings.problem(TINY_FILE, where, "is kept under table " + id.tableId() + ", but " + file.where() + " is of table "
                            + file.tableId() + "; readers of that table never see it");
                    continue;
                }
                Long rowSize = file.row().getLong("file_size_bytes");
                if (rowSize == null || rowSize != recordedSize) {
                    findings.problem(TINY_FILE, where, "was taken at " + recordedSize + " bytes, but " + file.where() + " records " + rowSize
                            + "; readers ignore it and read the file");
                    continue;
                }
                good.put(key, copy.key());
            }
        }
        return good;
    }
}
