package io.moraine.core.write;

import io.moraine.core.catalog.NameMapEntry;
import io.moraine.core.write.files.WrittenDataFile;

import io.moraine.core.row.Row;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * One table as a commit attempt changes it: its identity (the committed id, or one allocated in this commit), the
 * column rows it ends and adds, a new partition spec, sort order or comment, and the data it receives. The attempt
 * turns drafts into DuckLake's rows when it finishes.
 */
final class TableDraft
{
    final boolean created;
    long tableId;
    final UUID uuid;
    final long schemaId;
    final String schemaName;
    String name;
    final String path;
    /** The current ducklake_table row at the base snapshot; null for a table this commit creates. */
    final Row baseRow;
    /** The current column rows: the base's, then as this commit changes them. */
    final List<Row> columns;
    long nextColumnId;
    boolean dropped;
    boolean renamed;
    /** Columns or partitioning changed: a new schema version for the table (a ducklake_schema_versions row). */
    boolean columnsChanged;
    /** The inlined rows' columns (names, types) or partitioning changed: a new inlined-data table. */
    boolean inlinedLayoutChanged;
    /** Anything of the table's definition changed (altered_table). */
    boolean altered;
    final List<Row> endedColumns = new ArrayList<>();
    final List<Row> addedColumns = new ArrayList<>();
    Optional<List<PartitionField>> newPartitioning = Optional.empty();
    Optional<List<SortField>> newSortOrder = Optional.empty();
    Optional<Optional<String>> newComment = Optional.empty();
    /** New column comments by column id (empty removes the comment). */
    final java.util.Map<Long, Optional<String>> newColumnComments = new java.util.LinkedHashMap<>();
    /** Catalog ids of a new partition spec and sort order, allocated at staging. */
    long partitionId = -1;
    long sortId = -1;
    /** The schema version of an inlined-data table this commit registers for the table; null when it registers none. */
    Long inlinedVersion;
    final List<WrittenDataFile> dataFiles = new ArrayList<>();
    /** The name mapping of each data file added without field ids (ducklake_add_data_files), by identity. */
    final Map<WrittenDataFile, List<NameMapEntry>> nameMaps = new java.util.IdentityHashMap<>();
    /** The partition_key_index of each partition value of a data file whose values are not in key order, by identity. */
    final Map<WrittenDataFile, List<Long>> partitionKeyIndexes = new java.util.IdentityHashMap<>();
    /** The columns whose statistics in a mapped data file are typed as a transform key's (MappedDataFile), by identity. */
    final Map<WrittenDataFile, java.util.Set<Long>> keyTypedStatistics = new java.util.IdentityHashMap<>();
    final List<InlinedBatch> inlined = new ArrayList<>();

    /** Compactions of the table's data files (Compactions stages them). */
    final List<CompactedFiles> compactions = new ArrayList<>();

    // ---- deletes and updates (TableDeletes stages them)
    /** Positions to delete by data file id, and committed inlined rows to end by row id. */
    final Map<Long, TreeSet<Long>> deletedPositions = new TreeMap<>();
    final TreeSet<Long> deletedInlinedRowIds = new TreeSet<>();
    /** Every row visible at the base is deleted. */
    boolean truncated;
    /** Inlined rows an update re-inserts with their original row ids. */
    final List<InlinedRowsWithIds> inlinedWithRowIds = new ArrayList<>();

    TableDraft(boolean created, long tableId, UUID uuid, long schemaId, String schemaName, String name, String path, Row baseRow, List<Row> columns,
            long nextColumnId)
    {
        this.created = created;
        this.tableId = tableId;
        this.uuid = uuid;
        this.schemaId = schemaId;
        this.schemaName = schemaName;
        this.name = name;
        this.path = path;
        this.baseRow = baseRow;
        this.columns = new ArrayList<>(columns);
        this.nextColumnId = nextColumnId;
    }

    String qualifiedName()
    {
        return schemaName + "." + name;
    }

    Optional<Row> column(String columnName)
    {
        return columns.stream().filter(row -> row.get("parent_column") == null && row.getString("column_name").equals(columnName)).findFirst();
    }

    boolean hasData()
    {
        return !dataFiles.isEmpty() || !inlined.isEmpty() || !inlinedWithRowIds.isEmpty();
    }

    boolean hasDeletes()
    {
        return truncated || !deletedPositions.isEmpty() || !deletedInlinedRowIds.isEmpty();
    }
}
