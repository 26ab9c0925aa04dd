package io.moraine.core.write.maintenance;

import io.moraine.core.write.CompactedFiles;
import io.moraine.core.write.files.WrittenDataFile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ducklake_merge_adjacent_files} on one table, by DuckLake 1.5.5's {@code DuckLakeCompactor}: current files
 * below the size limit ({@code max_file_size}, else the table's {@code target_file_size}, default 512 MiB) and at
 * least {@code min_file_size}, with no delete file and no inlined file deletion, are grouped by schema version and
 * partition; within a group, consecutive files are merged until their sizes reach the target. An output keeps the first
 * source's {@code begin_snapshot} and carries each row's inserting snapshot in {@code _ducklake_internal_snapshot_id}
 * ({@code partial_max}: the newest source snapshot), and its row ids in {@code _ducklake_internal_row_id} unless the
 * sources' row ids were contiguous (then {@code row_id_start} is the first source's).
 */
final class AdjacentFileMerge
{
    static final long DEFAULT_TARGET_FILE_SIZE = 1L << 29;

    private AdjacentFileMerge() {}

    static void plan(TableCompaction compaction, MergeAdjacentOptions options)
    {
        long target = compaction.option("target_file_size").map(value -> parse("target_file_size", value)).orElse(DEFAULT_TARGET_FILE_SIZE);
        long maxSize = options.maxFileSize() != null ? options.maxFileSize() : target;
        long maxFiles = options.maxCompactedFiles() != null ? options.maxCompactedFiles() : Long.MAX_VALUE - 1;
        Map<List<Object>, List<CompactionSource>> groups = new LinkedHashMap<>();
        for (CompactionSource source : CompactionSources.of(compaction.head, compaction.table.id())) {
            boolean sized = source.sizeBytes() < maxSize && (options.minFileSize() == null || source.sizeBytes() >= options.minFileSize());
            if (!sized || source.sizeBytes() >= target || !source.deleteFiles().isEmpty() || source.inlinedDeletions() > 0) {
                continue;
            }
            groups.computeIfAbsent(source.group(), ignored -> new ArrayList<>()).add(source);
        }
        long compacted = 0;
        for (List<CompactionSource> group : groups.values()) {
            if (group.size() <= 1) {
                continue;
            }
            for (int start = 0; start < group.size(); start++) {
                long size = 0;
                int end;
                for (end = start; end < group.size(); end++) {
                    if (size >= target || group.get(end).sizeBytes() >= target) {
                        break;
                    }
                    size += group.get(end).sizeBytes();
                }
                if (end - start > 1) {
                    merge(compaction, group.subList(start, end));
                    start += end - start - 1;
                }
                compacted++;
                if (compacted >= maxFiles) {
                    break;
                }
            }
            if (compacted >= maxFiles) {
                break;
            }
        }
    }

    private static void merge(TableCompaction compaction, List<CompactionSource> sources)
    {
        boolean adjacent = true;
        Long next = null;
        for (CompactionSource source : sources) {
            if (source.rowIdStart() == null || (next != null && !next.equals(source.rowIdStart()))) {
                adjacent = false;
            }
            next = source.rowIdStart() == null ? null : source.rowIdStart() + source.rowCount();
        }
        List<CompactionOutput.Input> inputs = sources.stream().map(source -> new CompactionOutput.Input(source, Set.<Long>of())).toList();
        Optional<WrittenDataFile> output = compaction.write(inputs, !adjacent, true, "ducklake_merge_adjacent_files");
        long partialMax = sources.stream().mapToLong(source -> source.file().get("partial_max") != null ? source.file().getLong("partial_max")
                : source.beginSnapshot()).max().orElseThrow();
        compaction.add(new CompactedFiles(CompactedFiles.Kind.MERGE_ADJACENT, sources.stream().map(source -> compaction.source(source, null)).toList(),
                output.orElse(null), adjacent ? sources.getFirst().rowIdStart() : null, sources.getFirst().beginSnapshot(),
                sources.size() > 1 ? partialMax : null));
    }

    private static long parse(String key, String value)
    {
        try {
            return Long.parseLong(value.strip());
        }
        catch (NumberFormatException e) {
            throw TableCompaction.badOption(key, value);
        }
    }
}
