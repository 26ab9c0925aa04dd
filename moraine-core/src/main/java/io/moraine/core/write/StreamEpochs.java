package io.moraine.core.write;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.RowValueCodec;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Exactly-once commits of a streaming writer (a Spark streaming query, or any engine's): each epoch (micro-batch) it
 * commits records the writer's id and the epoch in the snapshot's {@code commit_extra_info}, as JSON
 * {@code {"stream_writer_id": "<id>", "stream_epoch_id": <n>}}, and before committing an epoch the writer asks
 * {@link #lastCommitted} whether the lake already holds it: an epoch at or below the last committed one is a replay
 * (the engine restarted after the commit landed but before it recorded so) and must commit nothing.
 * <p>
 * The rule leans on what DuckLake keeps: {@code ducklake_snapshot_changes} rows of snapshots not expired. A writer's
 * epochs only grow, so its newest snapshot carries its last epoch; expiring that snapshot while the writer may still
 * replay it would lose the record (DuckLake never expires the head, and a replay only concerns the writer's last epoch).
 */
public final class StreamEpochs
{
    static final String WRITER_KEY = "stream_writer_id";
    static final String EPOCH_KEY = "stream_epoch_id";
    /** Snapshot changes read per step of the backward search: the writer's last epoch is usually within the first. */
    private static final int WINDOW = 256;
    private static final Pattern WRITER = Pattern.compile("\"" + WRITER_KEY + "\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern EPOCH = Pattern.compile("\"" + EPOCH_KEY + "\"\\s*:\\s*(-?\\d+)");

    private StreamEpochs() {}

    /** A writer's epoch as a snapshot records it. */
    public record WriterEpoch(String writerId, long epochId) {}

    /** The commit info of epoch {@code epochId} of writer {@code writerId}: author and message as given, the epoch in the extra info. */
    public static CommitInfo commitInfo(String author, String message, String writerId, long epochId)
    {
        requireNonNull(writerId, "writerId is null");
        return new CommitInfo(author, message, extraInfo(writerId, epochId));
    }

    /** The extra info JSON that records epoch {@code epochId} of writer {@code writerId}. */
    public static String extraInfo(String writerId, long epochId)
    {
        return "{\"" + WRITER_KEY + "\": \"" + jsonEscaped(writerId) + "\", \"" + EPOCH_KEY + "\": " + epochId + "}";
    }

    /** The writer and epoch a snapshot's extra info records, if it is one {@link #extraInfo} wrote; any other text is none. */
    public static Optional<WriterEpoch> parse(String extraInfo)
    {
        if (extraInfo == null || !extraInfo.contains(WRITER_KEY)) {
            return Optional.empty();
        }
        Matcher writer = WRITER.matcher(extraInfo);
        Matcher epoch = EPOCH.matcher(extraInfo);
        if (!writer.find() || !epoch.find()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new WriterEpoch(jsonUnescaped(writer.group(1)), Long.parseLong(epoch.group(1))));
        }
        catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /**
     * The last epoch writer {@code writerId} committed up to {@code snapshot}, or empty when no snapshot there records
     * one. Searches the snapshot changes backwards from the snapshot in windows, and stops at the first window that
     * holds one of the writer's commits: one window when the writer committed lately, every change when it never did.
     */
    public static OptionalLong lastCommitted(CatalogSnapshot snapshot, String writerId)
    {
        requireNonNull(writerId, "writerId is null");
        OptionalLong found = lastCommittedIn(snapshot, writerId, Math.max(0, snapshot.id() - WINDOW + 1), snapshot.id());
        // the oldest snapshot only bounds a longer search (finding it reads a page of snapshots)
        long oldest = found.isPresent() ? 0 : snapshot.oldestSnapshotId();
        for (long end = snapshot.id() - WINDOW; found.isEmpty() && end >= oldest; end -= WINDOW) {
            found = lastCommittedIn(snapshot, writerId, Math.max(oldest, end - WINDOW + 1), end);
        }
        return found;
    }

    /** Whether epoch {@code epochId} of {@code writerId} is already in the lake at {@code snapshot} (a replay, to commit nothing). */
    public static boolean committed(CatalogSnapshot snapshot, String writerId, long epochId)
    {
        OptionalLong last = lastCommitted(snapshot, writerId);
        return last.isPresent() && last.getAsLong() >= epochId;
    }

    private static OptionalLong lastCommittedIn(CatalogSnapshot snapshot, String writerId, long start, long end)
    {
        long last = Long.MIN_VALUE;
        byte[] from = RowKeys.key(Subspace.CURRENT, TableKind.SNAPSHOT_CHANGES, start);
        byte[] to = RowKeys.key(Subspace.CURRENT, TableKind.SNAPSHOT_CHANGES, end + 1);
        try (KeyValueCursor changes = snapshot.reader().scan(from, to, RowCursor.DEFAULT_PAGE_SIZE)) {
            while (changes.hasNext()) {
                KeyValue entry = changes.next();
                String extraInfo = RowValueCodec.decode(TableKind.SNAPSHOT_CHANGES, entry.key(), entry.value()).getString("commit_extra_info");
                Optional<WriterEpoch> epoch = parse(extraInfo);
                if (epoch.isPresent() && epoch.get().writerId().equals(writerId)) {
                    last = Math.max(last, epoch.get().epochId());
                }
            }
        }
        return last == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(last);
    }

    private static String jsonEscaped(String text)
    {
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> escaped.append("\\\"");
                case '\\' -> escaped.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        escaped.append(String.format("\\u%04x", (int) c));
                    }
                    else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }

    private static String jsonUnescaped(String text)
    {
        StringBuilder plain = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                plain.append(c);
                continue;
            }
            char next = text.charAt(++i);
            switch (next) {
                case 'u' -> {
                    plain.append((char) Integer.parseInt(text.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                case 'n' -> plain.append('\n');
                case 't' -> plain.append('\t');
                case 'r' -> plain.append('\r');
                case 'b' -> plain.append('\b');
                case 'f' -> plain.append('\f');
                default -> plain.append(next);
            }
        }
        return plain.toString();
    }
}
