package io.moraine.core.catalog;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.store.WriterMode;
import io.moraine.core.tx.StagedTransaction;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The child process of {@link WriterHandoffTest}: opens the catalog read-write in the given writer mode and makes
 * {@code count} data-only commits to table 1, each adding {@value #FILES_PER_COMMIT} data files named
 * {@code <tag>-<i>-<k>.parquet}, reading the catalog before each (through a hand-off, reads must keep working). Prints
 * {@code ACK <tag> <i> <landed snapshot>} after each commit returns, or {@code FAIL <error>} and exits 1.
 * <p>
 * usage: HandoffCommitter &lt;store uri&gt; &lt;tag&gt; &lt;count&gt; &lt;writer mode&gt; &lt;max pause ms&gt; [&lt;turns&gt;]
 * <p>Each of the first {@code turns} commits (default 1) waits for a line on standard input, so the parent can make
 * the processes take turns; the rest follow at random pauses.
 */
public final class HandoffCommitter
{
    static final int FILES_PER_COMMIT = 2;
    static final long ROWS_PER_FILE = 10;

    private HandoffCommitter() {}

    public static void main(String[] args)
            throws Exception
    {
        StoreUri uri = StoreUri.parse(args[0]);
        String tag = args[1];
        int count = Integer.parseInt(args[2]);
        WriterMode writerMode = WriterMode.parse(args[3], "the writer mode");
        int maxPause = Integer.parseInt(args[4]);
        int turns = args.length > 5 ? Integer.parseInt(args[5]) : 1;
        try (MoraineCatalog catalog = MoraineCatalog.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withWriterMode(writerMode))) {
            System.out.println("OPEN " + tag);
            System.out.flush();
            var parent = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
            for (int i = 0; i < count; i++) {
                if (i < turns) {
                    parent.readLine();
                }
                System.out.println("ACK " + tag + " " + i + " " + commit(catalog, tag, i));
                System.out.flush();
                Thread.sleep(ThreadLocalRandom.current().nextInt(maxPause + 1));
            }
        }
        catch (RuntimeException e) {
            System.out.println("FAIL " + e.getClass().getSimpleName() + ": " + e.getMessage().replace('\n', ' '));
            System.out.flush();
            e.printStackTrace();
            System.exit(1);
        }
        System.out.println("DONE " + tag);
        System.out.flush();
    }

    /** One data-only commit read at the head this process sees; returns the snapshot it landed at. */
    static long commit(MoraineCatalog catalog, String tag, int i)
    {
        Row previous;
        Row stats;
        try (CatalogSnapshot snapshot = catalog.latest()) {
            previous = snapshot.snapshotRow();
            stats = snapshot.tableStats(1).orElseThrow();
        }
        Row next = CatalogTestSupport.nextSnapshot(previous, 0, 0, FILES_PER_COMMIT);
        long snapshotId = next.getLong("snapshot_id");
        StagedTransaction transaction = catalog.begin(previous.getLong("snapshot_id"))
                .insert(next)
                .insert(CatalogTestSupport.changes(snapshotId, "inserted_into_table:1"));
        long nextRowId = stats.getLong("next_row_id");
        for (int k = 0; k < FILES_PER_COMMIT; k++) {
            long fileId = previous.getLong("next_file_id") + k;
            transaction.insert(Row.of(TableKind.DATA_FILE, fileId, 1L, snapshotId, null, null, path(tag, i, k), true, "parquet",
                    ROWS_PER_FILE, 1000L + fileId, 100L, nextRowId + k * ROWS_PER_FILE, null, null, null, null));
        }
        long added = FILES_PER_COMMIT * ROWS_PER_FILE;
        transaction.update(stats, Map.of("record_count", stats.getLong("record_count") + added, "next_row_id", nextRowId + added));
        return transaction.commit();
    }

    static String path(String tag, int i, int k)
    {
        return tag + "-" + i + "-" + k + ".parquet";
    }
}
