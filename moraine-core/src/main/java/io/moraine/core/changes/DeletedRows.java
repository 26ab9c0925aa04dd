package io.moraine.core.changes;

import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.scan.DeleteFiles;
import io.moraine.core.scan.VisibleRows.LongColumn;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.HashMap;
import java.util.Map;

/**
 * Which positions of a {@link DeletedRowsTask}'s data file were deleted in its range, and in which snapshot (reference
 * §6.2), written once for every engine. The engine reads the data file with row positions (and the embedded row ids,
 * for {@code rowid}), and calls {@link #select} per batch; {@link #deletedIn} is a selected row's {@code snapshot_id}.
 */
public final class DeletedRows
{
    private final Map<Long, Long> deletedIn;
    private final Roaring64Bitmap positions;

    private DeletedRows(Map<Long, Long> deletedIn)
    {
        this.deletedIn = deletedIn;
        this.positions = new Roaring64Bitmap();
        deletedIn.keySet().forEach(positions::addLong);
    }

    /** The deleted positions of {@code task}'s file; reads its delete files through {@code files}. */
    public static DeletedRows of(DeletedRowsTask task, LakeFileSystem files)
    {
        Map<Long, Long> deletedIn = new HashMap<>();
        boolean retiredWithInlinedDeletes = task.retiredAt().isPresent() && task.inlinedPositions().length > 0;
        if (task.deleteFile().isPresent()) {
            fromDeleteFile(task, files, deletedIn);
        }
        else if (task.retiredAt().isPresent() && !retiredWithInlinedDeletes) {
            // DuckLake 1.0 reports only the inlined deletes of a file retired in range that also has some.
            fromRetirement(task, files, deletedIn);
        }
        long[] inlinedPositions = task.inlinedPositions();
        long[] inlinedSnapshots = task.inlinedSnapshots();
        for (int i = 0; i < inlinedPositions.length; i++) {
            deletedIn.put(inlinedPositions[i], inlinedSnapshots[i]);
        }
        return new DeletedRows(deletedIn);
    }

    /**
     * A delete file's positions deleted in the range: by the snapshot it records per position, or, without one, the
     * positions it adds to the previous delete file, deleted at its own begin snapshot.
     */
    private static void fromDeleteFile(DeletedRowsTask task, LakeFileSystem files, Map<Long, Long> deletedIn)
    {
        Map<Long, Long> entries = new HashMap<>();
        boolean recordsSnapshots = DeleteFiles.read(files, task.deleteFile().orElseThrow(), entries::put);
        if (recordsSnapshots || task.deleteFile().orElseThrow().beginSnapshot() < task.fromSnapshot()) {
            // By the snapshot of each position (without them, a file older than the range deleted nothing in it).
            entries.forEach((position, deletedAt) -> {
                if (task.fromSnapshot() <= deletedAt && deletedAt <= task.toSnapshot()) {
                    deletedIn.put(position, deletedAt);
                }
            });
            return;
        }
        Roaring64Bitmap previous = previousPositions(task, files);
        entries.forEach((position, deletedAt) -> {
            if (!previous.contains(position)) {
                deletedIn.put(position, deletedAt);
            }
        });
    }

    /** A retired file: every position the previous delete file had not deleted, deleted when the file was retired. */
    private static void fromRetirement(DeletedRowsTask task, LakeFileSystem files, Map<Long, Long> deletedIn)
    {
        Roaring64Bitmap previous = previousPositions(task, files);
        long retiredAt = task.retiredAt().getAsLong();
        for (long position = 0; position < task.file().recordCount(); position++) {
            if (!previous.contains(position)) {
                deletedIn.put(position, retiredAt);
            }
        }
    }

    private static Roaring64Bitmap previousPositions(DeletedRowsTask task, LakeFileSystem files)
    {
        Roaring64Bitmap previous = new Roaring64Bitmap();
        task.previousDeleteFile().ifPresent(file -> DeleteFiles.read(files, file, (position, deletedAt) -> previous.addLong(position)));
        return previous;
    }

    /** Whether no row of the file was deleted in the range (the file need not be read). */
    public boolean isEmpty()
    {
        return deletedIn.isEmpty();
    }

    /** The earliest snapshot that deleted a row of the file (there must be one). */
    public long firstSnapshot()
    {
        return deletedIn.values().stream().mapToLong(Long::longValue).min().orElseThrow(() -> new IllegalStateException("no row was deleted in the range"));
    }

    /** The latest snapshot that deleted a row of the file (there must be one). */
    public long lastSnapshot()
    {
        return deletedIn.values().stream().mapToLong(Long::longValue).max().orElseThrow(() -> new IllegalStateException("no row was deleted in the range"));
    }

    /** How many rows of the file were deleted in the range. */
    public long count()
    {
        return deletedIn.size();
    }

    /**
     * Writes the indexes (0-based, ascending) of a batch's deleted rows into {@code selected} and returns how many there
     * are; {@code positions} gives each row's position in the file.
     */
    public int select(int rows, LongColumn positions, int[] selected)
    {
        int kept = 0;
        for (int row = 0; row < rows; row++) {
            if (this.positions.contains(positions.get(row))) {
                selected[kept++] = row;
            }
        }
        return kept;
    }

    /** The snapshot that deleted the row at {@code position} (a selected one). */
    public long deletedIn(long position)
    {
        Long snapshot = deletedIn.get(position);
        if (snapshot == null) {
            throw new IllegalArgumentException("position " + position + " was not deleted in the range");
        }
        return snapshot;
    }
}
