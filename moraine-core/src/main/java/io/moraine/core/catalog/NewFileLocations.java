package io.moraine.core.catalog;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.tx.StagedOperation;

import java.util.List;
import java.util.Optional;

/**
 * Checks the file paths a commit writes into the catalog before it lands: the data and delete files it registers and
 * the files it schedules for deletion must lie where {@link AllowedLocations} allows, and a registered path must be
 * spelled in normal form ({@link LakePath}), because DuckLake's orphan removal compares the files it lists with the
 * catalog's paths as text and would take a live file spelled otherwise for an orphan.
 */
public final class NewFileLocations
{
    private NewFileLocations() {}

    /** Refuses the first path of {@code operations} that is not allowed; {@code head} resolves tables the commit does not create. */
    public static void check(CatalogSnapshot head, List<StagedOperation> operations, AllowedLocations allowed)
    {
        String dataPath = head.facts().get(StoreFacts.DATA_PATH);
        if (dataPath == null) {
            return;
        }
        for (StagedOperation operation : operations) {
            if (!(operation instanceof StagedOperation.Insert insert)) {
                continue;
            }
            Row row = insert.row();
            switch (row.kind()) {
                case DATA_FILE, DELETE_FILE -> checkRegistration(head, operations, dataPath, row, allowed);
                case FILES_SCHEDULED_FOR_DELETION -> checkScheduledDeletion(dataPath, row, allowed);
                default -> {
                }
            }
        }
    }

    private static void checkRegistration(CatalogSnapshot head, List<StagedOperation> operations, String dataPath, Row file, AllowedLocations allowed)
    {
        String path = file.getString("path");
        if (path == null) {
            return;
        }
        requireNormalSpelling(path, file);
        long tableId = file.getLong("table_id");
        Optional<Row> table = staged(operations, TableKind.TABLE, "table_id", tableId).or(() -> head.table(tableId));
        if (table.isEmpty()) {
            // A table neither staged nor visible: the commit fails on its own; check the path against the data path alone.
            allowed.checkNew(Boolean.TRUE.equals(file.get("path_is_relative")) ? dataPath + path : path, dataPath, dataPath, "register " + path);
            return;
        }
        long schemaId = table.get().getLong("schema_id");
        Optional<Row> schema = staged(operations, TableKind.SCHEMA, "schema_id", schemaId)
                .or(() -> head.visible(TableKind.SCHEMA, schemaId).toList().stream().findFirst());
        if (schema.isEmpty()) {
            allowed.checkNew(Boolean.TRUE.equals(file.get("path_is_relative")) ? dataPath + path : path, dataPath, dataPath, "register " + path);
            return;
        }
        TableFileLocations.of(dataPath, schema.get(), table.get(), allowed).newPath(file);
    }

    /** DuckLake resolves a relative path of ducklake_files_scheduled_for_deletion under the data path. */
    private static void checkScheduledDeletion(String dataPath, Row row, AllowedLocations allowed)
    {
        String path = row.getString("path");
        if (path == null) {
            return;
        }
        boolean relative = Boolean.TRUE.equals(row.get("path_is_relative"));
        String resolved = relative ? dataPath + path : path;
        allowed.checkRegistered(resolved, relative ? dataPath : resolved, dataPath, "schedule the deletion of file " + row.getLong("data_file_id") + " at");
    }

    private static void requireNormalSpelling(String path, Row file)
    {
        if (!LakePath.isNormalSpelling(path)) {
            throw new InvalidArgumentException("cannot register " + (file.kind() == TableKind.DELETE_FILE ? "delete" : "data") + " file path '" + path
                    + "': it is not in normal form (a '.' or '..' segment, or an empty one from '//'). DuckLake's orphan removal compares "
                    + "paths as text and would delete the live file as an orphan; register it by its plain path");
        }
    }

    private static Optional<Row> staged(List<StagedOperation> operations, TableKind kind, String idColumn, long id)
    {
        Optional<Row> found = Optional.empty();
        for (StagedOperation operation : operations) {
            if (operation instanceof StagedOperation.Insert insert && insert.row().kind() == kind && Long.valueOf(id).equals(insert.row().getLong(idColumn))
                    && insert.row().get("end_snapshot") == null) {
                found = Optional.of(insert.row());
            }
        }
        return found;
    }
}
