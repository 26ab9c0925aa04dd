package io.moraine.core.write;

import io.moraine.core.write.files.DataFileLayout;
import io.moraine.core.write.files.DataFileNames;

import io.moraine.core.catalog.CatalogModel;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.LakeSchema;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.error.AlreadyExistsException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.tx.StagedTransaction;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * One attempt to commit a {@link WriteTransaction} on top of a base snapshot: the transaction's steps are replayed onto
 * table and schema drafts, then {@link #stage} allocates ids from the base's counters in DuckLake's order (schemas,
 * then tables with their partition and sort keys; files in order; row ids files first, then inlined rows) and stages
 * the rows DuckLake's {@code CommitChanges} writes. A retried commit makes a new attempt on the newer head, so every id
 * is recomputed from it, as DuckLake's commit loop does.
 */
final class CommitAttempt
{
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_-]+");

    final CatalogSnapshot base;
    final CatalogModel model;
    final long snapshotId;
    final String dataPath;
    private final Map<String, NewSchema> createdSchemas = new LinkedHashMap<>();
    private final List<LakeSchema> droppedSchemas = new ArrayList<>();
    /** Every table this attempt touches, by qualified name as it is now (a dropped table keeps its last name). */
    private final Map<Long, TableDraft> existingTables = new LinkedHashMap<>();
    private final List<TableDraft> createdTables = new ArrayList<>();
    private final List<NewView> createdViews = new ArrayList<>();
    private final List<io.moraine.core.catalog.LakeView> droppedViews = new ArrayList<>();
    private final Data data;
    /** The lake's files, for delete files (null when the transaction was begun without them); what this attempt wrote. */
    LakeFileSystem files;
    final List<String> writtenFiles = new ArrayList<>();

    /** A schema this commit creates; its id is allocated at {@link #stage}. */
    static final class NewSchema
    {
        final String name;
        final UUID uuid = DataFileNames.uuidV7();
        long schemaId = -1;

        NewSchema(String name)
        {
            this.name = name;
        }

        String path()
        {
            return (PLAIN_NAME.matcher(name).matches() ? name : uuid.toString()) + "/";
        }
    }

    CommitAttempt(CatalogSnapshot base)
    {
        this.base = base;
        this.model = base.model();
        this.snapshotId = base.id() + 1;
        this.dataPath = base.facts().get(StoreFacts.DATA_PATH);
        this.data = new Data(this);
    }

    Data data()
    {
        return data;
    }

    // ---- schemas

    void createSchema(String name, boolean ifNotExists)
    {
        if (schemaExists(name)) {
            if (ifNotExists) {
                return;
            }
            throw new AlreadyExistsException("schema " + name + " already exists; choose another name, or drop it first");
        }
        createdSchemas.put(name, new NewSchema(name));
    }

    void dropSchema(String name)
    {
        if (createdSchemas.remove(name) != null) {
            return;
        }
        LakeSchema schema = existingSchema(name);
        boolean hasTables = !model.tables(schema).stream().allMatch(table -> draft(table).dropped) || !model.views(schema).isEmpty();
        boolean hasNewTables = createdTables.stream().anyMatch(table -> !table.dropped && table.schemaName.equals(name));
        if (hasTables || hasNewTables) {
            throw new InvalidArgumentException("schema " + name + " is not empty; drop its tables and views first");
        }
        droppedSchemas.add(schema);
    }

    private boolean schemaExists(String name)
    {
        return createdSchemas.containsKey(name) || (model.schema(name).isPresent() && droppedSchemas.stream().noneMatch(s -> s.name().equals(name)));
    }

    private LakeSchema existingSchema(String name)
    {
        return model.schema(name).filter(schema -> droppedSchemas.stream().noneMatch(dropped -> dropped.id() == schema.id()))
                .orElseThrow(() -> new NotFoundException("schema " + name + " does not exist at snapshot " + base.id() + "; create it first"));
    }

    // ---- tables

    TableDraft createTable(NewTable spec)
    {
        if (!schemaExists(spec.schema())) {
            throw new NotFoundException("schema " + spec.schema() + " does not exist at snapshot " + base.id() + "; create it first");
        }
        if (findTable(spec.schema(), spec.name()).isPresent() || model.view(spec.schema(), spec.name()).isPresent()) {
            throw new AlreadyExistsException("table or view " + spec.schema() + "." + spec.name() + " already exists; choose another name, or drop it first");
        }
        if (spec.columns().isEmpty()) {
            throw new InvalidArgumentException("table " + spec.schema() + "." + spec.name() + " has no columns; give it at least one");
        }
        UUID uuid = DataFileNames.uuidV7();
        String path = (PLAIN_NAME.matcher(spec.name()).matches() ? spec.name() : uuid.toString()) + "/";
        long schemaId = createdSchemas.containsKey(spec.schema()) ? -1 : existingSchema(spec.schema()).id();
        TableDraft draft = new TableDraft(true, -1, uuid, schemaId, spec.schema(), spec.name(), path, null, List.of(), 1);
        ColumnRows.addAll(draft, spec.columns(), snapshotId);
        if (!spec.partitioning().isEmpty()) {
            draft.newPartitioning = Optional.of(spec.partitioning());
        }
        if (!spec.sortOrder().isEmpty()) {
            draft.newSortOrder = Optional.of(spec.sortOrder());
        }
        spec.comment().ifPresent(comment -> draft.newComment = Optional.of(Optional.of(comment)));
        createdTables.add(draft);
        return draft;
    }

    /** The table {@code schema.name} as this attempt sees it: created here, or existing at the base and not dropped. */
    TableDraft table(String schema, String name)
    {
        return findTable(schema, name).orElseThrow(() -> new NotFoundException("table " + schema + "." + name + " does not exist at snapshot "
                + base.id() + "; check the name, or create the table first"));
    }

    /** The table with committed id {@code tableId}, which must still exist. */
    TableDraft table(long tableId)
    {
        LakeTable table = model.table(tableId).orElseThrow(() -> new NotFoundException("table " + tableId + " does not exist at snapshot " + base.id()
                + "; it was dropped since this transaction began: re-read the catalog and retry"));
        TableDraft draft = draft(table);
        if (draft.dropped) {
            throw new NotFoundException("table " + draft.qualifiedName() + " was dropped in this transaction");
        }
        return draft;
    }

    private Optional<TableDraft> findTable(String schema, String name)
    {
        for (TableDraft created : createdTables) {
            if (!created.dropped && created.schemaName.equals(schema) && created.name.equals(name)) {
                return Optional.of(created);
            }
        }
        for (TableDraft existing : existingTables.values()) {
            if (!existing.dropped && existing.schemaName.equals(schema) && existing.name.equals(name)) {
                return Optional.of(existing);
            }
        }
        return model.table(schema, name).map(this::draft).filter(draft -> !draft.dropped && draft.name.equals(name));
    }

    private TableDraft draft(LakeTable table)
    {
        return existingTables.computeIfAbsent(table.id(), id -> {
            Row row = base.table(id).orElseThrow();
            List<Row> columns = base.columns(id);
            long maxColumnId = 0;
            try (var every = base.everyVersion(TableKind.COLUMN, id)) {
                while (every.hasNext()) {
                    maxColumnId = Math.max(maxColumnId, every.next().getLong("column_id"));
                }
            }
            return new TableDraft(false, id, table.uuid(), table.schema().id(), table.schema().name(), table.name(), table.path().orElse(null), row,
                    columns, maxColumnId + 1);
        });
    }

    void dropTable(String schema, String name)
    {
        TableDraft draft = table(schema, name);
        if (draft.created) {
            createdTables.remove(draft);
            return;
        }
        draft.dropped = true;
    }

    void renameTable(String schema, String name, String newName)
    {
        TableDraft draft = table(schema, name);
        if (findTable(schema, newName).isPresent() || model.view(schema, newName).isPresent()) {
            throw new AlreadyExistsException("table or view " + schema + "." + newName + " already exists; choose another name");
        }
        draft.name = newName;
        draft.renamed = !draft.created;
    }

    // ---- table changes

    void alterTable(String schema, String name, java.util.function.Consumer<TableDraft> change)
    {
        change.accept(table(schema, name));
    }

    void setPartitioning(String schema, String name, List<PartitionField> keys)
    {
        TableDraft table = table(schema, name);
        for (PartitionField key : keys) {
            table.column(key.column()).orElseThrow(() -> new NotFoundException("partition key column " + key.column() + " is not a top-level column of "
                    + table.qualifiedName() + "; name one of its columns"));
        }
        table.newPartitioning = Optional.of(List.copyOf(keys));
        table.altered = true;
        table.columnsChanged = true;
        table.inlinedLayoutChanged = true;
    }

    void setSortOrder(String schema, String name, List<SortField> keys)
    {
        TableDraft table = table(schema, name);
        table.newSortOrder = Optional.of(List.copyOf(keys));
        table.altered = true;
    }

    void setComment(String schema, String name, Optional<String> comment)
    {
        TableDraft table = table(schema, name);
        table.newComment = Optional.of(comment);
        table.altered = true;
    }

    void setColumnComment(String schema, String name, List<String> column, Optional<String> comment)
    {
        TableDraft table = table(schema, name);
        table.newColumnComments.put(ColumnChanges.find(table, column).getLong("column_id"), comment);
        table.altered = true;
    }

    /** SET NOT NULL as DuckLake allows it: only when the table's statistics show the column holds no NULL. */
    void requireNoNulls(TableDraft table, List<String> column)
    {
        long columnId = ColumnChanges.find(table, column).getLong("column_id");
        boolean noNulls = !table.created && !table.hasData() && base.tableColumnStats(table.tableId).stream()
                .anyMatch(stats -> stats.getLong("column_id") == columnId && Boolean.FALSE.equals(stats.get("contains_null")));
        if (!noNulls) {
            throw new io.moraine.core.error.ConstraintException("cannot set column " + String.join(".", column) + " of " + table.qualifiedName()
                    + " NOT NULL: its statistics show NULL values, or the table has no statistics yet (no data, or data added in this transaction); "
                    + "commit the data first, and remove the NULL values");
        }
    }

    // ---- views

    void createView(String schema, String name, String dialect, String sql, Map<String, String> tags)
    {
        if (!schemaExists(schema)) {
            throw new NotFoundException("schema " + schema + " does not exist at snapshot " + base.id() + "; create it first");
        }
        if (findTable(schema, name).isPresent() || findView(schema, name).isPresent()) {
            throw new AlreadyExistsException("table or view " + schema + "." + name + " already exists; choose another name, or drop it first");
        }
        createdViews.add(new NewView(schema, name, dialect, sql, tags));
    }

    void dropView(String schema, String name)
    {
        if (createdViews.removeIf(view -> view.schema.equals(schema) && view.name.equals(name))) {
            return;
        }
        io.moraine.core.catalog.LakeView view = findView(schema, name).orElseThrow(() -> new NotFoundException("view " + schema + "." + name
                + " does not exist at snapshot " + base.id() + "; check the name"));
        droppedViews.add(view);
    }

    private Optional<io.moraine.core.catalog.LakeView> findView(String schema, String name)
    {
        if (createdViews.stream().anyMatch(view -> view.schema.equals(schema) && view.name.equals(name))) {
            return Optional.empty();
        }
        return model.view(schema, name).filter(view -> droppedViews.stream().noneMatch(dropped -> dropped.id() == view.id()));
    }

    /** A view this commit creates; its id is allocated at {@link #stage}. */
    static final class NewView
    {
        final String schema;
        final String name;
        final String dialect;
        final String sql;
        final Map<String, String> tags;
        final UUID uuid = DataFileNames.uuidV7();

        NewView(String schema, String name, String dialect, String sql, Map<String, String> tags)
        {
            this.schema = schema;
            this.name = name;
            this.dialect = dialect;
            this.sql = sql;
            this.tags = tags;
        }
    }

    // ---- staging

    /** Allocates ids and stages every row of this attempt into {@code tx}; returns the changes made. */
    ChangesMade stage(StagedTransaction tx, CommitInfo info)
    {
        Counters counters = new Counters(base.nextCatalogId(), base.nextFileId());
        ChangesMade changes = new ChangesMade();
        for (NewSchema schema : createdSchemas.values()) {
            schema.schemaId = counters.nextCatalogId++;
        }
        for (TableDraft table : createdTables) {
            table.tableId = counters.nextCatalogId++;
            TableRows.allocateKeys(table, counters);
        }
        for (TableDraft table : existingTables.values()) {
            if (!table.dropped) {
                TableRows.allocateKeys(table, counters);
            }
        }
        Map<NewView, Long> viewIds = new LinkedHashMap<>();
        for (NewView view : createdViews) {
            viewIds.put(view, counters.nextCatalogId++);
        }
        boolean structureChanged = !createdSchemas.isEmpty() || !droppedSchemas.isEmpty() || !createdTables.isEmpty()
                || !createdViews.isEmpty() || !droppedViews.isEmpty()
                || existingTables.values().stream().anyMatch(table -> table.dropped || table.renamed || table.altered);
        long schemaVersion = base.schemaVersion() + (structureChanged ? 1 : 0);
        TableRows tableRows = new TableRows(this, tx, changes, schemaVersion);

        for (LakeSchema schema : droppedSchemas) {
            tx.endRow(TableKind.SCHEMA, snapshotId, schema.id());
            changes.add("dropped_schema", schema.id());
        }
        for (TableDraft table : existingTables.values()) {
            if (table.dropped) {
                tableRows.drop(table);
            }
        }
        for (io.moraine.core.catalog.LakeView view : droppedViews) {
            Row row = base.everyVersion(TableKind.VIEW, view.id()).toList().stream().filter(r -> r.get("end_snapshot") == null).findFirst().orElseThrow();
            tx.endRow(TableKind.VIEW, snapshotId, view.id(), row.getLong("begin_snapshot"));
            // As DuckLake drops a view: its tags (comment and others) end with it.
            for (Row tag : base.tags(view.id())) {
                tx.endRow(TableKind.TAG, snapshotId, view.id(), tag.getString("key"), tag.getLong("begin_snapshot"));
            }
            changes.add("dropped_view", view.id());
        }
        for (NewSchema schema : createdSchemas.values()) {
            tx.insert(Row.of(TableKind.SCHEMA, schema.schemaId, schema.uuid, snapshotId, null, schema.name, schema.path(), true));
            changes.createdSchema(schema.name);
        }
        for (TableDraft table : createdTables) {
            tableRows.create(table, schemaIdOf(table));
        }
        for (Map.Entry<NewView, Long> entry : viewIds.entrySet()) {
            NewView view = entry.getKey();
            long schemaId = createdSchemas.containsKey(view.schema) ? createdSchemas.get(view.schema).schemaId : existingSchema(view.schema).id();
            tx.insert(Row.of(TableKind.VIEW, entry.getValue(), view.uuid, snapshotId, null, schemaId, view.name, view.dialect, view.sql, ""));
            view.tags.forEach((key, value) -> tx.insert(Row.of(TableKind.TAG, entry.getValue(), snapshotId, null, key, value)));
            changes.createdView(view.schema, view.name);
        }
        for (TableDraft table : existingTables.values()) {
            if (!table.dropped) {
                tableRows.alter(table);
            }
        }
        List<TableDraft> withData = new ArrayList<>(createdTables);
        existingTables.values().stream().filter(table -> !table.dropped).forEach(withData::add);
        long finalSchemaVersion = data.stage(tx, changes, withData, counters, schemaVersion, tableRows);
        TableDeletes.stage(this, tx, changes, withData, counters);
        Compactions.stage(this, tx, changes, withData, counters);

        tx.insert(Row.of(TableKind.SNAPSHOT, snapshotId, Instant.now().truncatedTo(ChronoUnit.MICROS), finalSchemaVersion, counters.nextCatalogId,
                counters.nextFileId));
        tx.insert(Row.of(TableKind.SNAPSHOT_CHANGES, snapshotId, changes.text(), info.author(), info.message(), info.extraInfo()));
        return changes;
    }

    private long schemaIdOf(TableDraft table)
    {
        if (table.schemaId >= 0) {
            return table.schemaId;
        }
        return createdSchemas.get(table.schemaName).schemaId;
    }

    /** The table's directory, where its relative file paths resolve. */
    String tablePath(TableDraft table)
    {
        if (!table.created) {
            return model.table(table.tableId).orElseThrow().resolvedPath(dataPath);
        }
        String schemaPath = createdSchemas.containsKey(table.schemaName)
                ? dataPath + createdSchemas.get(table.schemaName).path()
                : existingSchema(table.schemaName).resolvedPath(dataPath);
        return schemaPath + table.path;
    }

    /** How the engine writes data files of the table as this attempt sees it (new columns and partitioning included). */
    DataFileLayout dataFileLayout(TableDraft table)
    {
        List<io.moraine.core.row.ColumnNode> nodes = io.moraine.core.row.ColumnNode.assemble(ColumnTree.sorted(table.columns));
        io.moraine.core.types.TableSchema columns = io.moraine.core.types.TableSchema.of(nodes);
        Optional<io.moraine.core.catalog.PartitionSpec> spec;
        if (table.newPartitioning.isPresent()) {
            List<PartitionField> keys = table.newPartitioning.get();
            List<Row> keyRows = new ArrayList<>();
            for (int index = 0; index < keys.size(); index++) {
                long columnId = table.column(keys.get(index).column()).orElseThrow().getLong("column_id");
                keyRows.add(Row.of(TableKind.PARTITION_COLUMN, -1L, table.tableId, (long) index, columnId, keys.get(index).transform().text()));
            }
            spec = Optional.of(io.moraine.core.catalog.PartitionSpec.of(-1, keyRows, nodes));
        }
        else if (table.created) {
            spec = Optional.empty();
        }
        else {
            spec = base.partitionInfo(table.tableId)
                    .map(info -> io.moraine.core.catalog.PartitionSpec.of(info.getLong("partition_id"),
                            base.partitionColumns(table.tableId, info.getLong("partition_id")), nodes));
        }
        boolean encrypted = "true".equalsIgnoreCase(base.facts().get(StoreFacts.ENCRYPTED));
        long tableId = table.created ? -1 : table.tableId;
        java.util.function.Function<String, Optional<String>> option = key -> base.option(key, table.schemaId, tableId);
        io.moraine.core.catalog.TableDefinition definition = new io.moraine.core.catalog.TableDefinition(
                model.table(tableId).orElseGet(() -> placeholderTable(table)), columns, spec, Optional.empty(), java.util.Map.of());
        return DataFileLayout.of(tablePath(table), definition, encrypted, option);
    }

    private LakeTable placeholderTable(TableDraft table)
    {
        LakeSchema schema = model.schema(table.schemaName).orElseGet(() -> new LakeSchema(-1, createdSchemas.get(table.schemaName).uuid, table.schemaName,
                Optional.of(createdSchemas.get(table.schemaName).path()), true));
        return new LakeTable(table.tableId, table.uuid, schema, table.name, Optional.of(table.path), true);
    }

    /** The existing tables this attempt deletes rows of. */
    List<TableDraft> tablesWithDeletes()
    {
        return existingTables.values().stream().filter(table -> !table.dropped && table.hasDeletes()).toList();
    }

    boolean isEmpty()
    {
        return createdSchemas.isEmpty() && droppedSchemas.isEmpty() && createdTables.isEmpty() && createdViews.isEmpty() && droppedViews.isEmpty()
                && existingTables.values().stream().noneMatch(table -> table.dropped || table.renamed || table.altered || table.hasData()
                        || table.hasDeletes() || !table.compactions.isEmpty());
    }

    /** The id counters of the commit: {@code next_catalog_id} and {@code next_file_id} as ids are taken. */
    static final class Counters
    {
        long nextCatalogId;
        long nextFileId;

        Counters(long nextCatalogId, long nextFileId)
        {
            this.nextCatalogId = nextCatalogId;
            this.nextFileId = nextFileId;
        }
    }
}
