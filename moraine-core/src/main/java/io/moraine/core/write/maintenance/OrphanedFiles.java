package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The files {@code ducklake_delete_orphaned_files} deletes: every {@code .parquet} and {@code .puffin} file under the
 * lake's data path that no row of the catalog names — no data or delete file of any snapshot (ended ones included,
 * under every path their table and schema have had) and no file scheduled for deletion — and, unless every orphan
 * goes, last modified before a cut-off. Paths are compared normalised (separators, {@code file:} URIs, {@code .} and
 * repeated slashes), so that a file the catalog names in another spelling is never taken for an orphan.
 */
final class OrphanedFiles
{
    private final String dataPath;
    private final CatalogRows rows;
    private final ScheduledPaths scheduled;

    OrphanedFiles(String dataPath, CatalogRows rows)
    {
        this.dataPath = dataPath;
        this.rows = rows;
        this.scheduled = new ScheduledPaths(dataPath, rows);
    }

    /** The orphans under the data path, listed by {@code files}, last modified before {@code olderThan} (empty: any time). */
    List<String> find(LakeFileSystem files, Optional<Instant> olderThan)
            throws IOException
    {
        Set<String> known = knownPaths();
        List<String> orphans = new ArrayList<>();
        for (LakeFileSystem.ListedFile file : files.listFilesWithModificationTimes(dataPath)) {
            String path = file.path();
            if (!(path.endsWith(".parquet") || path.endsWith(".puffin")) || known.contains(normalise(path))) {
                continue;
            }
            if (olderThan.isPresent() && !file.lastModified().isBefore(olderThan.get())) {
                continue;
            }
            orphans.add(path);
        }
        return orphans;
    }

    /** Every path the catalog names a file by, normalised. */
    private Set<String> knownPaths()
    {
        List<Row> schemas = rows.of(TableKind.SCHEMA);
        List<Row> tables = rows.of(TableKind.TABLE);
        Set<String> tablePaths = new HashSet<>();
        Set<String> known = new HashSet<>();
        for (TableKind kind : List.of(TableKind.DATA_FILE, TableKind.DELETE_FILE)) {
            for (Row file : rows.of(kind)) {
                long tableId = file.getLong("table_id");
                tablePaths.clear();
                for (Row table : tables) {
                    if (table.getLong("table_id") != tableId) {
                        continue;
                    }
                    for (Row schema : schemas) {
                        if (schema.getLong("schema_id") == table.getLong("schema_id")) {
                            tablePaths.add(CatalogPaths.tablePath(dataPath, schema, table));
                        }
                    }
                }
                if (tablePaths.isEmpty()) {
                    // a table whose rows are gone: only an absolute file path still names the file
                    tablePaths.add(dataPath);
                }
                for (String tablePath : tablePaths) {
                    known.add(normalise(CatalogPaths.filePath(tablePath, file)));
                }
            }
        }
        for (Row row : rows.of(TableKind.FILES_SCHEDULED_FOR_DELETION)) {
            known.add(normalise(scheduled.resolve(row)));
        }
        return known;
    }

    /** One spelling of a path: forward slashes, no {@code file:} scheme, no repeated slashes or {@code .}/{@code ..} segments. */
    static String normalise(String path)
    {
        String text = path.replace('\\', '/');
        if (text.startsWith("file://")) {
            text = text.substring("file://".length());
        }
        else if (text.startsWith("file:/")) {
            text = text.substring("file:".length());
        }
        int scheme = text.indexOf("://");
        String prefix = scheme > 0 ? text.substring(0, scheme + 3) : "";
        String rest = (scheme > 0 ? text.substring(scheme + 3) : text).replaceAll("/{2,}", "/");
        if (scheme <= 0) {
            try {
                return Path.of(rest).normalize().toString();
            }
            catch (InvalidPathException e) {
                return rest;
            }
        }
        while (rest.contains("/./")) {
            rest = rest.replace("/./", "/");
        }
        return prefix + rest;
    }
}
