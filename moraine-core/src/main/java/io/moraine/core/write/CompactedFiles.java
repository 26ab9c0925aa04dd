package io.moraine.core.write;

import io.moraine.core.write.files.WrittenDataFile;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One compaction of a table's data files, as DuckLake's {@code ducklake_merge_adjacent_files} and
 * {@code ducklake_rewrite_data_files} commit it (see {@link WriteTransaction#compact}): the source files it replaces
 * and the one file written in their place (none when a rewrite found no live row).
 *
 * @param kind which call's rules apply
 * @param sources the replaced data files, in the order their rows were written
 * @param output the written file with what it measured; null when no row was left
 * @param rowIdStart the output's {@code row_id_start}: the first source's when the files were adjacent, else null
 *         (the rows carry their ids in {@code _ducklake_internal_row_id})
 * @param beginSnapshot the output's {@code begin_snapshot} for a merge (the first source's); ignored for a rewrite
 *         (the commit's snapshot)
 * @param partialMax the output's {@code partial_max} for a merge of several files; null otherwise
 */
public record CompactedFiles(Kind kind, List<Source> sources, WrittenDataFile output, Long rowIdStart, Long beginSnapshot, Long partialMax)
{
    public CompactedFiles
    {
        requireNonNull(kind, "kind is null");
        sources = List.copyOf(sources);
    }

    public enum Kind
    {
        /** {@code merge_adjacent:<table>}: sources are removed from the catalog and scheduled for deletion. */
        MERGE_ADJACENT("merge_adjacent"),
        /** {@code rewrite_delete:<table>}: sources and their delete files end at the commit's snapshot. */
        REWRITE_DELETES("rewrite_delete");

        final String change;

        Kind(String change)
        {
            this.change = change;
        }
    }

    /**
     * One replaced data file: its id, the id of its current delete file (null when none) and the number of its
     * inlined file deletions when the compaction read it (the commit refuses a source deleted from since), and the
     * path and path_is_relative a {@code ducklake_files_scheduled_for_deletion} row holds for it.
     */
    public record Source(long dataFileId, Long deleteFileId, long inlinedDeletions, String scheduledPath, boolean scheduledRelative) {}
}
