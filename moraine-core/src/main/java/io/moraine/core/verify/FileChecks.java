package io.moraine.core.verify;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.catalog.Row;
import io.moraine.core.io.LakeFileSystem;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Optional;
import java.util.OptionalLong;

import static io.moraine.core.verify.VerifyProblem.Check.FILE_SIZE;
import static io.moraine.core.verify.VerifyProblem.Check.MISSING_FILE;

/**
 * Every data and delete file the catalog references (current and history rows: older snapshots still read ended
 * files) exists at its resolved path under the data path, with the size the catalog records. Paths resolve as DuckLake
 * resolves them ({@link CatalogPaths}), through the newest row of the file's table and of that table's schema.
 */
final class FileChecks
{
    static final String FILES = "files";

    private final LakeFileSystem fileSystem;
    private final Findings findings;

    FileChecks(LakeFileSystem fileSystem, Findings findings)
    {
        this.fileSystem = fileSystem;
        this.findings = findings;
    }

    void run(CatalogRowChecks catalog, String dataPath)
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
            check(file, path);
        }
    }

    private void check(CatalogRowChecks.FileRow file, String path)
    {
        long length;
        try {
            length = fileSystem.newInputFile(path, OptionalLong.empty()).getLength();
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            findings.problem(MISSING_FILE, file.where(), path + " does not exist");
            return;
        }
        catch (IOException | RuntimeException e) {
            findings.problem(MISSING_FILE, file.where(), path + " cannot be read: " + e.getMessage());
            return;
        }
        Long recorded = file.row().getLong("file_size_bytes");
        if (recorded != null && recorded != length) {
            findings.problem(FILE_SIZE, file.where(), path + " has " + length + " bytes; the catalog records " + recorded);
        }
    }
}
