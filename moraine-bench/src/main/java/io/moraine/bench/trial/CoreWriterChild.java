package io.moraine.bench.trial;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.store.WriterMode;
import io.moraine.core.write.files.DataFileLayout;
import io.moraine.core.write.files.DataFileTarget;
import io.moraine.core.write.files.FileColumnStatistics;
import io.moraine.core.write.files.ParquetFooters;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.files.WrittenDataFile;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * A writer of {@code bin/moraine trial crash --writers 2}: a JVM committing through the core's {@link WriteTransaction}
 * with the writer hand-off, until it is killed — inlined inserts (at most the table's inlining limit) and inserts of a
 * parquet-java data file written where the transaction's {@link DataFileLayout} says. It announces {@code before-commit},
 * {@code before-write} (the batch is submitted to the store, not yet durable) and {@code after-commit-before-ack}, and
 * logs each commit as {@link TrialChild} does.
 */
public final class CoreWriterChild
{
    static final List<String> PHASES = List.of("before-commit", "before-write", "after-commit-before-ack");

    private CoreWriterChild() {}

    /**
     * Writes the batch's rows where {@code target} says and hands the file back with what the writer knows of it (its
     * statistics are the batch's ids; this module's parquet-java, Trino's 1.17, cannot run the core's footer reader).
     */
    private static WrittenDataFile writeFile(DataFileTarget target, long batch, int count)
            throws java.io.IOException
    {
        long size = TrialParquet.write(LocalFileSystem.INSTANCE, target.location(), batch, count);
        long footerSize = ParquetFooters.footerSize(LocalFileSystem.INSTANCE.newInputFile(target.location(), java.util.OptionalLong.of(size)));
        List<FileColumnStatistics> statistics = List.of(
                new FileColumnStatistics(1, null, (long) count, 0L, String.valueOf(TrialTable.rowId(batch, 0)), String.valueOf(TrialTable.rowId(batch, count - 1)),
                        null, null),
                new FileColumnStatistics(2, null, (long) count, 0L, String.valueOf(batch), String.valueOf(batch), null, null));
        return new WrittenDataFile(target.location(), size, footerSize, count, statistics, target.partitionValues());
    }

    /** Args: store uri, data path, log file, first batch number, seed, aimed phase (or none), store timeout millis, S3 endpoint (or none). */
    public static void main(String[] args)
            throws Exception
    {
        StoreUri store = StoreUri.parse(args[0]);
        Path logFile = Path.of(args[2]);
        long firstBatch = Long.parseLong(args[3]);
        Random random = new Random(Long.parseLong(args[4]));
        TrialChild.Announcer announcer = new TrialChild.Announcer(args[5]);
        StoreOptions options = TrialStore.options(store, Duration.ofMillis(Long.parseLong(args[6])), args[7]).withWriterMode(WriterMode.HANDOFF);
        try (TrialLog log = new TrialLog(logFile); BufferAllocator allocator = new RootAllocator();
                MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE, options, (snapshot, writes) -> announcer.announce("before-write"))) {
            WriterLoop.ready(announcer);
            WriterLoop.run(firstBatch, random, (batch, rows, inlined) -> {
                WriteTransaction transaction = WriteTransaction.begin(catalog);
                long limit = transaction.inliningRowLimit(TrialTable.SCHEMA_NAME, TrialTable.TABLE_NAME);
                boolean asInlined = inlined && limit > 0;
                int count = asInlined ? (int) Math.min(rows, limit) : rows;
                CommitContent content = new CommitContent(batch, asInlined ? CommitContent.Kind.INLINED : CommitContent.Kind.PARQUET, count, List.of());
                VectorSchemaRoot root = null;
                try {
                    if (asInlined) {
                        root = TrialTable.rows(allocator, batch, count);
                        transaction.insertInlined(TrialTable.SCHEMA_NAME, TrialTable.TABLE_NAME, root);
                    }
                    else {
                        DataFileLayout layout = transaction.dataFileLayout(TrialTable.SCHEMA_NAME, TrialTable.TABLE_NAME);
                        DataFileTarget target = layout.target();
                        transaction.appendDataFiles(TrialTable.SCHEMA_NAME, TrialTable.TABLE_NAME, List.of(writeFile(target, batch, count)));
                    }
                    log.commitLogged(content, announcer, transaction::commit);
                }
                finally {
                    if (root != null) {
                        root.close();
                    }
                }
            });
        }
    }
}
