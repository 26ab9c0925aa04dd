package io.moraine.sidecars.rowsum;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.RowIdentityPruning;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.scan.ScanTask;
import io.moraine.core.scan.TaskStream;

import java.util.Optional;
import java.util.function.Predicate;

/**
 * How far a lake is published: every data file a snapshot sees is either dense (the catalog proves its ids) or opened
 * through {@code reader} the way a lookup opens it, so its metrics tell hits from misses from refusals.
 */
public final class RowSummaryCensus
{
    public record Counts(long tables, long dataFiles, long dense, long usable) {}

    private RowSummaryCensus() {}

    public static Counts take(CatalogSnapshot snapshot, String dataPath, RowSummaryReader reader)
    {
        long tables = 0;
        long dataFiles = 0;
        long dense = 0;
        long usable = 0;
        for (var table : snapshot.tables()) {
            long tableId = table.getLong("table_id");
            tables++;
            Predicate<DataFileTask> positional = RowIdentityPruning.provenPositional(snapshot, tableId);
            try (TaskStream tasks = ScanBuilder.forTable(snapshot, tableId).withDataPath(Optional.of(dataPath)).withMaxSplitSize(Long.MAX_VALUE).build().planTasks()) {
                while (tasks.hasNext()) {
                    ScanTask task = tasks.next();
                    if (!(task instanceof DataFileTask file)) {
                        continue;
                    }
                    dataFiles++;
                    if (positional.test(file)) {
                        dense++;
                    }
                    else if (reader.open(RowIdLookup.identity(file)).isPresent()) {
                        usable++;
                    }
                }
            }
        }
        return new Counts(tables, dataFiles, dense, usable);
    }
}
