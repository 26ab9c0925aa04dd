package io.moraine.trino;

import io.airlift.units.Duration;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.write.maintenance.LakeMaintenance;
import io.moraine.core.write.maintenance.MergeAdjacentOptions;
import io.moraine.inline.flush.InlineFlusher;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableProcedureMetadata;
import io.trino.spi.session.PropertyMetadata;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.connector.TableProcedureExecutionMode.coordinatorOnly;
import static io.trino.spi.session.PropertyMetadata.doubleProperty;
import static io.trino.spi.session.PropertyMetadata.longProperty;
import static io.trino.spi.session.PropertyMetadata.stringProperty;

/**
 * The table procedures of {@code ALTER TABLE t EXECUTE name(...)}: each calls the core's maintenance operation that
 * commits what DuckLake's own call commits. They run on the coordinator. Snapshot expiry and the clean-up of old files
 * and the removal of orphaned files are lake-wide in DuckLake (snapshots and the data path belong to the lake, not to a
 * table), whichever table names them.
 */
public enum TableProcedure
{
    /** {@code ducklake_flush_inlined_data} of the table. */
    FLUSH_INLINED_DATA(List.of()),
    /** {@code ducklake_merge_adjacent_files} of the table. */
    MERGE_ADJACENT_FILES(List.of(
            longProperty("min_file_size", "Files of at least this many bytes are not merged (DuckLake's min_file_size)", null, false),
            longProperty("max_file_size", "A merged file grows to at most this many bytes (DuckLake's max_file_size)", null, false),
            longProperty("max_compacted_files", "Merge at most this many files in the call (DuckLake's max_compacted_files)", null, false))),
    /** {@code ducklake_rewrite_data_files} of the table. */
    REWRITE_DATA_FILES(List.of(
            doubleProperty("delete_threshold", "Rewrite files whose share of deleted rows is at least this (0 to 1; default the lake's "
                    + "rewrite_delete_threshold, else 0.95)", null, false))),
    /** {@code ducklake_expire_snapshots}: lake-wide. */
    EXPIRE_SNAPSHOTS(List.of(
            stringProperty("retention_threshold", "Expire snapshots older than this duration ('7d', '12h'); default the lake's "
                    + "expire_older_than option", null, false))),
    /** {@code ducklake_cleanup_old_files}: lake-wide. */
    CLEANUP_OLD_FILES(List.of(
            stringProperty("older_than", "Delete files scheduled for deletion longer ago than this duration ('7d', '12h'); default the "
                    + "lake's delete_older_than option", null, false))),
    /** {@code ducklake_delete_orphaned_files}: lake-wide. */
    REMOVE_ORPHAN_FILES(List.of(
            stringProperty("retention_threshold", "Delete Parquet files under the data path that no snapshot references and that were last "
                    + "modified longer ago than this duration ('7d', '12h'); default the lake's delete_older_than option", null, false)));

    private final List<PropertyMetadata<?>> properties;

    TableProcedure(List<PropertyMetadata<?>> properties)
    {
        this.properties = properties;
    }

    /** The name in {@code ALTER TABLE ... EXECUTE}. */
    String procedureName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    static java.util.Set<TableProcedureMetadata> metadata()
    {
        java.util.Set<TableProcedureMetadata> all = new java.util.LinkedHashSet<>();
        for (TableProcedure procedure : values()) {
            all.add(new TableProcedureMetadata(procedure.name(), coordinatorOnly(), procedure.properties));
        }
        return all;
    }

    static Optional<TableProcedure> byName(String name)
    {
        for (TableProcedure procedure : values()) {
            if (procedure.name().equalsIgnoreCase(name)) {
                return Optional.of(procedure);
            }
        }
        return Optional.empty();
    }

    /** The arguments given, as text (what the handle carries); absent ones are left out. */
    static Map<String, String> arguments(Map<String, Object> executeProperties)
    {
        Map<String, String> arguments = new LinkedHashMap<>();
        executeProperties.forEach((key, value) -> {
            if (value != null) {
                arguments.put(key, value.toString());
            }
        });
        return arguments;
    }

    /** Runs the procedure on the table; returns what it did, by metric name. */
    Map<String, Long> execute(SchemaTableName table, Map<String, String> arguments, MoraineCatalog writer, LakeFileSystem files)
    {
        LakeMaintenance maintenance = new LakeMaintenance(writer, files);
        String schemaName = table.getSchemaName();
        String tableName = table.getTableName();
        return switch (this) {
            case FLUSH_INLINED_DATA -> {
                List<InlineFlusher.FlushedFile> flushed = InlineFlusher.flush(writer, Optional.of(schemaName + "." + tableName), files);
                yield Map.of("flushed_files", (long) flushed.size(), "flushed_rows", flushed.stream().mapToLong(InlineFlusher.FlushedFile::rows).sum());
            }
            case MERGE_ADJACENT_FILES -> Map.of("compactions", (long) maintenance.mergeAdjacentFiles(schemaName, tableName, new MergeAdjacentOptions(
                    argument(arguments, "min_file_size", Long::parseLong), argument(arguments, "max_file_size", Long::parseLong),
                    argument(arguments, "max_compacted_files", Long::parseLong))).size());
            case REWRITE_DATA_FILES -> Map.of("rewrites", (long) maintenance.rewriteDataFiles(schemaName, tableName,
                    argument(arguments, "delete_threshold", Double::parseDouble)).size());
            case EXPIRE_SNAPSHOTS -> {
                Instant olderThan = argument(arguments, "retention_threshold", TableProcedure::ago);
                yield Map.of("expired_snapshots", (long) (olderThan == null ? maintenance.expireSnapshots(false) : maintenance.expireSnapshotsOlderThan(olderThan, false)).size());
            }
            case CLEANUP_OLD_FILES -> {
                Instant olderThan = argument(arguments, "older_than", TableProcedure::ago);
                yield Map.of("deleted_files", (long) (olderThan == null ? maintenance.cleanupOldFiles(false) : maintenance.cleanupOldFiles(olderThan, false)).size());
            }
            case REMOVE_ORPHAN_FILES -> {
                Instant olderThan = argument(arguments, "retention_threshold", TableProcedure::ago);
                yield Map.of("deleted_files", (long) (olderThan == null ? maintenance.deleteOrphanedFiles(false)
                        : maintenance.deleteOrphanedFiles(olderThan, false)).size());
            }
        };
    }

    private static <T> T argument(Map<String, String> arguments, String name, Function<String, T> parse)
    {
        String text = arguments.get(name);
        return text == null ? null : parse.apply(text);
    }

    private static Instant ago(String duration)
    {
        try {
            return Instant.now().minusMillis(Duration.valueOf(duration.strip()).toMillis());
        }
        catch (IllegalArgumentException e) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "'" + duration + "' is not a duration; write a number and a unit, such as '7d', '12h' or '30m'", e);
        }
    }
}
