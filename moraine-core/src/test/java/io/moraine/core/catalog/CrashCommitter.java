package io.moraine.core.catalog;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.StagedTransaction;

import java.util.Map;

/**
 * The child process of {@link CrashRecoveryTest}: opens the catalog read-write and commits numbered snapshots, each
 * adding {@value #FILES_PER_COMMIT} data files to table 1 and bumping its stats, printing {@code ACK <id>} after
 * each commit returns. It runs until it is killed.
 */
public final class CrashCommitter
{
    static final int FILES_PER_COMMIT = 4;
    static final long ROWS_PER_FILE = 10;

    private CrashCommitter() {}

    public static void main(String[] args)
    {
        StoreUri uri = StoreUri.parse(args[0]);
        try (MoraineCatalog catalog = MoraineCatalog.open(uri, OpenMode.READ_WRITE)) {
            while (true) {
                Row previous = CatalogTestSupport.head(catalog);
                Row next = CatalogTestSupport.nextSnapshot(previous, 0, 0, FILES_PER_COMMIT);
                long snapshotId = next.getLong("snapshot_id");
                StagedTransaction transaction = catalog.begin(previous.getLong("snapshot_id"))
                        .insert(next)
                        .insert(CatalogTestSupport.changes(snapshotId, "inserted_into_table:1"));
                for (int i = 0; i < FILES_PER_COMMIT; i++) {
                    long fileId = previous.getLong("next_file_id") + i;
                    transaction.insert(CatalogTestSupport.dataFile(1, fileId, snapshotId, fileId * ROWS_PER_FILE, ROWS_PER_FILE));
                }
                long records = previous.getLong("next_file_id") * ROWS_PER_FILE + FILES_PER_COMMIT * ROWS_PER_FILE;
                transaction.update(TableKind.TABLE_STATS, Map.of("record_count", records, "next_row_id", records), 1L);
                transaction.commit();
                System.out.println("ACK " + snapshotId);
                System.out.flush();
            }
        }
    }
}
