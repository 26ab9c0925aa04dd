package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.store.WriterMode;
import io.moraine.core.verify.StoreVerifier;
import io.moraine.core.verify.VerifyReport;
import io.moraine.core.write.files.DataFileLayout;
import io.moraine.core.write.files.DataFileTarget;
import io.moraine.core.write.InlinedArrowSchema;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.files.WrittenDataFile;
import io.moraine.testing.S3ProxyServer;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.open;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two kinds of writer on one store, both with the writer hand-off: a DuckDB process attached read-write to
 * {@code ducklake:moraine:} ({@link DuckLakeChildProcess} {@code handoff-inserts}, one-row inserts) and this JVM
 * committing through the core's {@link WriteTransaction} (inlined inserts and parquet-java data files), interleaved,
 * on {@code file://} and on S3 (S3Proxy). Every acknowledged commit lands exactly once, DuckDB reads every row with
 * the row ids its commit gave it, and the store verifies clean.
 */
class MixedWritersTest
{
    private static final int DUCKDB_INSERTS = 15;
    private static final int CORE_COMMITS = 14;
    private static final int INLINED_ROWS = 3;
    private static final int FILE_ROWS = 30;
    private static final int CORE_FIRST_ID = 100_000;

    @TempDir
    Path temp;

    @Test
    void duckDbAndTheCoreApiCommitInterleavedOnAFileStore()
            throws Exception
    {
        run(temp.resolve("store").toString());
    }

    @Test
    void duckDbAndTheCoreApiCommitInterleavedOnS3()
            throws Exception
    {
        String bucket = S3ProxyServer.shared().createBucket("moraine-mixed-writers");
        run("s3://" + bucket + "/catalog");
    }

    private void run(String store)
            throws Exception
    {
        Path data = Files.createDirectories(temp.resolve("data"));
        boolean s3 = store.startsWith("s3://");
        try (Connection connection = open()) {
            if (s3) {
                execute(connection, "LOAD httpfs");
            }
            execute(connection, DuckLakeChildProcess.attach(store, data, ", DATA_INLINING_ROW_LIMIT 10" + (s3 ? ", READ_WRITE" : "")));
            execute(connection, "CREATE TABLE lake.items (id INTEGER)");
        }
        // The ids of each core commit, in the order its rows were given (row ids follow that order).
        Map<Long, List<Integer>> coreCommits = new HashMap<>();
        Process child = DuckLakeChildProcess.start("handoff-inserts", store, data.toString(), "0", String.valueOf(DUCKDB_INSERTS));
        try (RootAllocator allocator = new RootAllocator();
                MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store), OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withWriterMode(WriterMode.HANDOFF))) {
            BufferedReader output = DuckLakeChildProcess.output(child);
            DuckLakeChildProcess.awaitLine(child, output, "ATTACHED");
            int nextId = CORE_FIRST_ID;
            for (int i = 0; i < CORE_COMMITS; i++) {
                int rows = i % 2 == 0 ? INLINED_ROWS : FILE_ROWS;
                List<Integer> ids = new ArrayList<>();
                for (int k = 0; k < rows; k++) {
                    ids.add(nextId++);
                }
                long snapshot = i % 2 == 0 ? commitInlined(catalog, allocator, ids) : commitDataFile(catalog, ids);
                assertThat(coreCommits.put(snapshot, ids)).as("two core commits acknowledged at snapshot " + snapshot).isNull();
                Thread.sleep(ThreadLocalRandom.current().nextInt(40));
            }
            DuckLakeChildProcess.awaitLine(child, output, "INSERTED " + DUCKDB_INSERTS);
            assertThat(DuckLakeChildProcess.waitFor(child)).isZero();
        }
        finally {
            child.destroyForcibly();
        }

        TreeSet<Integer> expected = new TreeSet<>();
        for (int i = 0; i < DUCKDB_INSERTS; i++) {
            expected.add(i);
        }
        coreCommits.values().forEach(expected::addAll);
        try (Connection connection = open()) {
            if (s3) {
                execute(connection, "LOAD httpfs");
            }
            execute(connection, DuckLakeChildProcess.attach(store, data, ", READ_ONLY"));
            List<List<String>> rows = query(connection, "SELECT id, rowid FROM lake.items ORDER BY rowid");
            List<Integer> ids = rows.stream().map(row -> Integer.parseInt(row.get(0))).toList();
            assertThat(ids).as("every acknowledged commit's rows, each once").hasSize(expected.size()).doesNotHaveDuplicates();
            assertThat(new TreeSet<>(ids)).isEqualTo(expected);
            List<Long> rowIds = rows.stream().map(row -> Long.parseLong(row.get(1))).toList();
            List<Long> dense = java.util.stream.LongStream.range(0, expected.size()).boxed().toList();
            assertThat(rowIds).as("row ids 0..n-1, one per row").isEqualTo(dense);
            Map<Integer, Long> rowIdOf = new HashMap<>();
            rows.forEach(row -> rowIdOf.put(Integer.parseInt(row.get(0)), Long.parseLong(row.get(1))));
            int checkedCommits = 0;
            for (Map.Entry<Long, List<Integer>> commit : coreCommits.entrySet()) {
                List<Integer> commitIds = commit.getValue();
                long first = rowIdOf.get(commitIds.getFirst());
                for (int k = 0; k < commitIds.size(); k++) {
                    assertThat(rowIdOf.get(commitIds.get(k))).as("row id of id " + commitIds.get(k)).isEqualTo(first + k);
                }
                // The commit's rows appear at its own snapshot and not before.
                assertThat(query(connection, "SELECT count(*) FROM lake.items AT (VERSION => " + commit.getKey() + ") WHERE id IN ("
                        + commitIds.getFirst() + ", " + commitIds.getLast() + ")")).containsExactly(List.of("2"));
                assertThat(query(connection, "SELECT count(*) FROM lake.items AT (VERSION => " + (commit.getKey() - 1) + ") WHERE id = "
                        + commitIds.getFirst())).containsExactly(List.of("0"));
                checkedCommits++;
            }
            assertThat(checkedCommits).isEqualTo(CORE_COMMITS);
            assertThat(query(connection, "SELECT count(*) FROM ducklake_list_files('lake', 'items')").getFirst().getFirst())
                    .as("data files: the core's (and none of DuckDB's one-row inserts)").isEqualTo(String.valueOf(CORE_COMMITS / 2));
        }
        VerifyReport report = StoreVerifier.verify(StoreUri.parse(store), StoreOptions.DEFAULTS, StoreVerifier.Options.STORE_ONLY.withFiles(LocalFileSystem.INSTANCE));
        assertThat(report.problems()).isEmpty();
    }

    private static long commitInlined(MoraineCatalog catalog, RootAllocator allocator, List<Integer> ids)
    {
        WriteTransaction transaction = WriteTransaction.begin(catalog);
        try (var snapshot = catalog.at(transaction.readSnapshotId());
                VectorSchemaRoot rows = VectorSchemaRoot.create(InlinedArrowSchema.of(
                        snapshot.model().columns(snapshot.model().table("main", "items").orElseThrow()).columns()), allocator)) {
            IntVector id = (IntVector) rows.getVector("id");
            id.allocateNew(ids.size());
            for (int k = 0; k < ids.size(); k++) {
                id.set(k, ids.get(k));
            }
            rows.setRowCount(ids.size());
            return transaction.insertInlined("main", "items", rows).commit();
        }
    }

    private static long commitDataFile(MoraineCatalog catalog, List<Integer> ids)
            throws Exception
    {
        WriteTransaction transaction = WriteTransaction.begin(catalog);
        DataFileLayout layout = transaction.dataFileLayout("main", "items");
        DataFileTarget target = layout.target();
        CoreWriteDataFilesTest.write(target, ids.size(), (group, k) -> group.append("id", ids.get(k)));
        return transaction.appendDataFiles("main", "items", List.of(WrittenDataFile.measure(LocalFileSystem.INSTANCE, target, layout.columns().columns())))
                .commit();
    }
}
