package io.moraine.duckdb.ext;

import io.moraine.testing.DuckDbTesting;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;

/**
 * A second JVM that attaches a {@code ducklake:moraine:} store, started by the cross-process tests. Modes:
 * <ul>
 * <li>{@code write <store> <data> <id>}: attaches read-write (fencing any other writer), inserts {@code id} into
 * {@code lake.items}, prints {@code COMMITTED} and exits;</li>
 * <li>{@code follow <store> <data> <count>}: attaches READ_ONLY, prints {@code ATTACHED <count>}, then polls
 * {@code lake.items} until it holds {@code count} rows (bounded), prints {@code SAW <count>} and exits;</li>
 * <li>{@code commit-batches <store> <data> <log>}: commits batches into {@code lake.batches} until killed, appending
 * {@code <batch> <snapshot id> <total rows>} to {@code log} (fsync'd) after each acknowledged commit;</li>
 * <li>{@code handoff-inserts <store> <data> <first id> <count>}: attaches with {@code META_WRITER_MODE 'handoff'} and
 * inserts {@code count} ids into {@code lake.items}, one commit each, then prints {@code INSERTED <count>}; the store may
 * be an {@code s3://} uri (credentials from the build's AWS_* environment).</li>
 * </ul>
 */
public final class DuckLakeChildProcess
{
    private DuckLakeChildProcess() {}

    /** Rows in batch {@code batch}: alternately inlined (under the row limit of 10) and Parquet-sized. */
    static int batchSize(long batch)
    {
        return batch % 2 == 0 ? 6 : 400;
    }

    static String attach(Path store, Path data, String mode)
    {
        return attach(store.toString(), data, mode);
    }

    /** The ATTACH of store {@code store} (a path or an {@code s3://} uri; an S3 store needs httpfs loaded and READ_WRITE asked for). */
    static String attach(String store, Path data, String mode)
    {
        return "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/'" + mode + ")";
    }

    /** The attach options of a read-write attach with the writer hand-off: an {@code s3://} store is attached READ_ONLY unless asked. */
    static String handoffMode(String store)
    {
        return ", META_WRITER_MODE 'handoff'" + (store.startsWith("s3://") ? ", READ_WRITE" : "");
    }

    /** Starts this class in a new JVM with the test's class path and the properties that find the extensions. */
    static Process start(String... arguments)
            throws IOException
    {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx512m",
                "-Dmoraine.duckdb.shim.extension=" + ExtensionConnections.extension(),
                "-D" + DuckDbTesting.EXTENSION_DIR_PROPERTY + "=" + DuckDbTesting.extensionDirectory().toAbsolutePath(),
                "-cp", System.getProperty("java.class.path"), DuckLakeChildProcess.class.getName()));
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** Reads the child's output lines until one starts with {@code prefix}; fails if the child ends first. */
    static String awaitLine(Process child, BufferedReader output, String prefix)
            throws IOException
    {
        String line;
        while ((line = output.readLine()) != null) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("the child process ended (exit " + waitFor(child) + ") before printing " + prefix);
    }

    static BufferedReader output(Process child)
    {
        return new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    }

    static int waitFor(Process child)
    {
        try {
            if (!child.waitFor(120, TimeUnit.SECONDS)) {
                child.destroyForcibly();
                return -1;
            }
            return child.exitValue();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            child.destroyForcibly();
            return -1;
        }
    }

    public static void main(String[] args)
            throws Exception
    {
        Path store = Path.of(args[1]);
        Path data = Path.of(args[2]);
        try (Connection connection = ExtensionConnections.open()) {
            if (args[1].startsWith("s3://")) {
                execute(connection, "LOAD httpfs");
            }
            switch (args[0]) {
                case "write" -> {
                    execute(connection, attach(store, data, ""));
                    execute(connection, "INSERT INTO lake.items VALUES (" + Integer.parseInt(args[3]) + ")");
                    System.out.println("COMMITTED");
                }
                case "follow" -> follow(connection, store, data, Long.parseLong(args[3]));
                case "commit-batches" -> commitBatches(connection, store, data, Path.of(args[3]));
                case "handoff-inserts" -> handoffInserts(connection, args[1], data, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        }
        System.out.flush();
    }

    private static void follow(Connection connection, Path store, Path data, long expected)
            throws Exception
    {
        execute(connection, attach(store, data, ", READ_ONLY"));
        System.out.println("ATTACHED " + count(connection, "SELECT count(*) FROM lake.items"));
        System.out.flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long seen;
        while ((seen = count(connection, "SELECT count(*) FROM lake.items")) < expected && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        System.out.println("SAW " + seen);
    }

    /** Attaches read-write with the writer hand-off and inserts ids {@code first}.. one commit each, pausing at random. */
    private static void handoffInserts(Connection connection, String store, Path data, int first, int inserts)
            throws Exception
    {
        execute(connection, attach(store, data, handoffMode(store)));
        System.out.println("ATTACHED");
        System.out.flush();
        for (int i = 0; i < inserts; i++) {
            execute(connection, "INSERT INTO lake.items VALUES (" + (first + i) + ")");
            Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextInt(40));
        }
        System.out.println("INSERTED " + inserts);
    }

    private static void commitBatches(Connection connection, Path store, Path data, Path log)
            throws Exception
    {
        execute(connection, attach(store, data, ""));
        long batch = count(connection, "SELECT coalesce(max(batch), -1) FROM lake.batches") + 1;
        long rows = count(connection, "SELECT count(*) FROM lake.batches");
        System.out.println("STARTED " + batch);
        System.out.flush();
        try (FileChannel out = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            for (; ; batch++) {
                int size = batchSize(batch);
                // Two inserts in one transaction: the commit must land both halves or neither.
                execute(connection, "BEGIN");
                execute(connection, "INSERT INTO lake.batches SELECT " + batch + ", i FROM range(0, " + size / 2 + ") t(i)");
                execute(connection, "INSERT INTO lake.batches SELECT " + batch + ", i FROM range(" + size / 2 + ", " + size + ") t(i)");
                execute(connection, "COMMIT");
                rows += size;
                // One writer, so the newest snapshot is this commit's.
                long snapshot = count(connection, "SELECT max(snapshot_id) FROM ducklake_snapshots('lake')");
                out.write(ByteBuffer.wrap((batch + " " + snapshot + " " + rows + "\n").getBytes(StandardCharsets.UTF_8)));
                out.force(true);
            }
        }
    }
}
