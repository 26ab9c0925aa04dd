package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.scan.DataFileTask;

import java.io.IOException;

/**
 * A data file's summary from the file itself: its embedded row-id column in file order, or, for a file that embeds
 * none, {@code row_id_start + position} (ascending over a range). Both publishing and the lookup chain's last step use
 * it.
 */
final class RowSummaryDerivation
{
    private RowSummaryDerivation() {}

    static RowSummary derive(LakeFileSystem files, DataFileTask task, DataFileIdentity file)
            throws IOException
    {
        java.util.Optional<long[]> embedded = EmbeddedRowIds.readIfEmbedded(files, file);
        if (embedded.isPresent()) {
            return RowSummary.fromFileOrder(embedded.get());
        }
        if (task.rowIdStart().isEmpty()) {
            throw new IllegalStateException("data file " + file.path() + " embeds no row ids and the catalog gives it no row_id_start: "
                    + "its row ids cannot be known");
        }
        return new RowSummary(task.recordCount(), new DenseRowIds(task.rowIdStart().getAsLong(), task.recordCount()), new RowOrder.Ascending());
    }
}
