package io.moraine.bench.trial;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The child's log of its commits, shared by its committer threads: an intent line before each commit, and after it
 * either an acknowledgement ({@code A <batch> <snapshot> <digest>}, forced to disk before the next commit of that
 * thread starts), a conflict ({@code C <batch>}: refused, nothing written) or a failure ({@code F <batch>}: it may or
 * may not have landed). A line the kill cut short is not counted.
 */
final class TrialLog
        implements AutoCloseable
{
    private final FileChannel channel;

    TrialLog(Path file)
            throws IOException
    {
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    /**
     * Commits {@code content} as a trial child does: logs its intent, announces the phases a kill may aim at, logs the
     * outcome, and prints ACK once the commit is acknowledged. Returns the snapshot it landed at.
     */
    long commitLogged(CommitContent content, TrialChild.Announcer announcer, java.util.function.LongSupplier commit)
    {
        intent(content);
        announcer.announce("before-commit");
        long snapshot;
        try {
            snapshot = commit.getAsLong();
        }
        catch (io.moraine.core.error.CommitConflictException e) {
            conflict(content);
            throw e;
        }
        catch (RuntimeException e) {
            failed(content, e);
            throw e;
        }
        announcer.announce("after-commit-before-ack");
        acknowledged(content, snapshot);
        WriterLoop.ack();
        return snapshot;
    }

    synchronized void intent(CommitContent content)
    {
        write(content.intentLine(), false);
    }

    synchronized void acknowledged(CommitContent content, long snapshot)
    {
        write("A " + content.batch() + " " + snapshot + " " + content.digest(), true);
    }

    synchronized void conflict(CommitContent content)
    {
        write("C " + content.batch(), false);
    }

    synchronized void failed(CommitContent content, Throwable error)
    {
        write("F " + content.batch() + " " + String.valueOf(error).replace('\n', ' '), false);
    }

    private void write(String line, boolean force)
    {
        try {
            ByteBuffer bytes = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            if (force) {
                channel.force(false);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close()
            throws IOException
    {
        channel.close();
    }

    /** An acknowledgement read back; snapshot -1: the writer did not learn its commit's snapshot (DuckDB). */
    record Ack(long batch, long snapshot, String digest) {}

    /** What a child's log says, read after the child died. */
    record Contents(Map<Long, CommitContent> intents, List<Ack> acks, int conflicts, List<String> failures)
    {
        /** The logs of several children of one trial as one. */
        static Contents merge(List<Contents> logs)
        {
            Map<Long, CommitContent> intents = new LinkedHashMap<>();
            List<Ack> acks = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            int conflicts = 0;
            for (Contents log : logs) {
                intents.putAll(log.intents());
                acks.addAll(log.acks());
                failures.addAll(log.failures());
                conflicts += log.conflicts();
            }
            return new Contents(intents, acks, conflicts, failures);
        }
    }

    static Contents read(Path file)
            throws IOException
    {
        Map<Long, CommitContent> intents = new LinkedHashMap<>();
        List<Ack> acks = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        int conflicts = 0;
        if (!Files.exists(file)) {
            return new Contents(intents, acks, 0, failures);
        }
        String text = Files.readString(file);
        List<String> lines = text.lines().toList();
        if (!text.endsWith("\n") && !lines.isEmpty()) {
            lines = lines.subList(0, lines.size() - 1);
        }
        for (String line : lines) {
            String[] fields = line.split(" ", 5);
            switch (fields[0]) {
                case "I" -> {
                    CommitContent content = CommitContent.parseIntent(fields);
                    intents.put(content.batch(), content);
                }
                case "A" -> acks.add(new Ack(Long.parseLong(fields[1]), Long.parseLong(fields[2]), fields[3]));
                case "C" -> conflicts++;
                case "F" -> failures.add(line);
                default -> throw new IOException("unexpected line in trial log " + file + ": " + line);
            }
        }
        return new Contents(intents, acks, conflicts, failures);
    }
}
