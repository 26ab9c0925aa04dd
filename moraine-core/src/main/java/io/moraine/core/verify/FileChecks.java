package io.moraine.core.verify;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.row.Row;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.keyspace.TinyFileKeys;
import io.moraine.core.store.KeyValueReader;
import org.apache.parquet.io.SeekableInputStream;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static io.moraine.core.verify.VerifyProblem.Check.FILE_SIZE;
import static io.moraine.core.verify.VerifyProblem.Check.MISSING_FILE;
import static io.moraine.core.verify.VerifyProblem.Check.TINY_FILE;

/**
 * Every data and delete file the catalog references (current and history rows: older snapshots still read ended
 * files) exists at its resolved path under the data path, with the size the catalog records. Paths resolve as DuckLake
 * resolves them ({@link CatalogPaths}), through the newest row of the file's table and of that table's schema. A file
 * with a good tiny-file copy is read whole and compared with it.
 */
final class FileChecks
{
    static final String FILES = "files";
    static final String COPIES_COMPARED = "tiny-file copies compared with their files";

    private final LakeFileSystem fileSystem;
    private final Findings findings;

    FileChecks(LakeFileSystem fileSystem, Findings findings)
    {
        this.fileSystem = fileSystem;
        this.findings = findings;
    }

    void run(CatalogRowChecks catalog, String dataPath, KeyValueReader reader, Map<TinyFileChecks.FileKey, byte[]> copies)
    {
        findings.expect(FILES);
        for (CatalogRowChecks.FileRow file : catalog.files()) {
            Optional<Row> table = catalog.newestTableRow(file.tableId());
            Optional<Row> schema = table.flatMap(row -> catalog.newestSchemaRow(row.getLong("schema_id")));
            if (schema.isEmpty()) {
                findings.problem(MISSING_FILE, file.where(), "its path cannot be resolved: " + (table.isEmpty() ? "table " + file.tableId()
                        : "schema " + table.get().getLong("schema_id")) + " has no row");
                continue;
            }
            String path = CatalogPaths.filePath(CatalogPaths.tablePath(dataPath, schema.get(), table.get()), file.row());
            findings.checked(FILES);
            byte[] copyKey = copies.get(TinyFileChecks.FileKey.of(file));
            if (check(file, path) && copyKey != null) {
                compareCopy(file, path, reader.get(copyKey), copyKey);
            }
        }
    }

    /** Whether the file exists with the size its row records. */
    private boolean check(CatalogRowChecks.FileRow file, String path)
    {
        long length;
        try {
            length = fileSystem.newInputFile(path, OptionalLong.empty()).getLength();
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            findings.problem(MISSING_FILE, file.where(), path + " does not exist");
            return false;
        }
        catch (IOException | RuntimeException e) {
            findings.problem(MISSING_FILE, file.where(), path + " cannot be read: " + e.getMessage());
            return false;
        }
        Long recorded = file.row().getLong("file_size_bytes");
        if (recorded != null && recorded != length) {
            findings.problem(FILE_SIZE, file.where(), path + " has " + length + " bytes; the catalog records " + recorded);
            return false;
        }
        return true;
    }

    private void compareCopy(CatalogRowChecks.FileRow file, String path, byte[] copyValue, byte[] copyKey)
    {
        findings.checked(COPIES_COMPARED);
        byte[] bytes;
        try (SeekableInputStream in = fileSystem.newInputFile(path, OptionalLong.empty()).newStream()) {
            bytes = in.readAllBytes();
        }
        catch (IOException | RuntimeException e) {
            findings.problem(MISSING_FILE, file.where(), path + " cannot be read: " + e.getMessage());
            return;
        }
        if (copyValue == null || !Arrays.equals(bytes, TinyFileKeys.fileBytes(copyKey, copyValue))) {
            findings.problem(TINY_FILE, file.where(), "its tiny-file copy differs from the bytes of " + path
                    + " (of the same size): Trino and Spark read the copy, DuckDB the file, so their answers may differ; the copy"
                    + " holds the file's bytes when it was published and data files never change, so restore the file from a backup");
        }
    }
}
