package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.row.Row;
import io.moraine.core.scan.DeleteFiles;
import io.moraine.core.scan.InlinedFileDeletes;
import io.moraine.core.write.CompactedFiles;
import io.moraine.core.write.files.WrittenDataFile;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code ducklake_rewrite_data_files} on one table, by DuckLake 1.5.5's {@code DuckLakeCompactor}: current files whose
 * deleted share (current delete file's count plus inlined file deletions, over the file's rows) is at least the
 * threshold are grouped by schema version and partition, and each group is rewritten into one file holding its live
 * rows with their row ids in {@code _ducklake_internal_row_id} (no file when none is live). The sources and their
 * delete files end at the commit's snapshot, where the output begins.
 */
final class DeleteRewrite
{
    static final double DEFAULT_THRESHOLD = 0.95;

    private DeleteRewrite() {}

    /** The threshold: {@code given} when set, else the table's {@code rewrite_delete_threshold} option, else 0.95. */
    static double threshold(TableCompaction compaction, Double given)
    {
        double threshold;
        if (given != null) {
            threshold = given;
        }
        else {
            String option = compaction.option("rewrite_delete_threshold").orElse(null);
            try {
                threshold = option == null ? DEFAULT_THRESHOLD : Double.parseDouble(option.strip());
            }
            catch (NumberFormatException e) {
                throw new InvalidArgumentException("option rewrite_delete_threshold is '" + option + "', not a number; set it between 0 and 1");
            }
        }
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new InvalidArgumentException("The delete_threshold option must be between 0 and 1; got " + threshold);
        }
        return threshold;
    }

    static void plan(TableCompaction compaction, double threshold)
    {
        Map<Long, long[]> inlined = InlinedFileDeletes.positionsAt(compaction.head.reader(), compaction.table.id(), compaction.head.id());
        Map<List<Object>, List<CompactionSource>> groups = new LinkedHashMap<>();
        for (CompactionSource source : CompactionSources.of(compaction.head, compaction.table.id())) {
            long deleted = currentDeleteFile(source).map(row -> row.getLong("delete_count")).orElse(0L)
                    + inlined.getOrDefault(source.id(), new long[0]).length;
            double ratio = source.rowCount() > 0 ? (double) deleted / source.rowCount() : 0;
            if (deleted == 0 || ratio < threshold) {
                continue;
            }
            groups.computeIfAbsent(source.group(), ignored -> new ArrayList<>()).add(source);
        }
        for (List<CompactionSource> group : groups.values()) {
            rewrite(compaction, group, inlined);
        }
    }

    private static void rewrite(TableCompaction compaction, List<CompactionSource> sources, Map<Long, long[]> inlined)
    {
        List<CompactionSource> actionable = sources.stream()
                .filter(source -> source.deleteFiles().isEmpty() || source.deleteFiles().getLast().get("end_snapshot") == null).toList();
        if (actionable.isEmpty()) {
            return;
        }
        List<CompactionOutput.Input> inputs = new ArrayList<>();
        for (CompactionSource source : actionable) {
            Set<Long> deleted = new HashSet<>();
            currentDeleteFile(source).ifPresent(row -> DeleteFiles.read(compaction.files.newInputFile(CatalogPaths.filePath(compaction.tablePath, row),
                    OptionalLong.of(row.getLong("file_size_bytes"))), row.getLong("begin_snapshot"), (position, snapshot) -> deleted.add(position)));
            for (long position : inlined.getOrDefault(source.id(), new long[0])) {
                deleted.add(position);
            }
            inputs.add(new CompactionOutput.Input(source, deleted));
        }
        Optional<WrittenDataFile> output = compaction.write(inputs, true, false, "ducklake_rewrite_data_files");
        compaction.add(new CompactedFiles(CompactedFiles.Kind.REWRITE_DELETES, actionable.stream()
                .map(source -> compaction.source(source, currentDeleteFile(source).map(row -> row.getLong("delete_file_id")).orElse(null))).toList(),
                output.orElse(null), null, null, null));
    }

    /** The file's newest delete file when it is current. */
    private static Optional<Row> currentDeleteFile(CompactionSource source)
    {
        return source.deleteFiles().isEmpty() ? Optional.empty()
                : Optional.of(source.deleteFiles().getLast()).filter(row -> row.get("end_snapshot") == null);
    }
}
