package io.moraine.bench.trial;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;

/**
 * What one trial commit means to the table: batch {@code batch} inserts {@code rows} rows (ids
 * {@link TrialTable#rowId}) and deletes the rows {@code deleted}; a flush changes no row. Logged as an intent before
 * the commit and, by digest, as its acknowledgement after.
 */
record CommitContent(long batch, Kind kind, int rows, List<Long> deleted)
{
    enum Kind
    {
        INLINED, PARQUET, DELETE, FLUSH
    }

    CommitContent
    {
        deleted = List.copyOf(new TreeSet<>(deleted));
    }

    TreeSet<Long> inserted()
    {
        TreeSet<Long> ids = new TreeSet<>();
        for (int i = 0; i < rows; i++) {
            ids.add(TrialTable.rowId(batch, i));
        }
        return ids;
    }

    /** The digest of a table change: the sorted ids inserted and deleted. */
    static String digest(Iterable<Long> inserted, Iterable<Long> deleted)
    {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(("+" + join(inserted) + "-" + join(deleted)).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(Arrays.copyOf(sha.digest(), 8));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    String digest()
    {
        return digest(inserted(), deleted);
    }

    private static String join(Iterable<Long> ids)
    {
        StringBuilder text = new StringBuilder();
        for (long id : new TreeSet<Long>(toList(ids))) {
            text.append(id).append(',');
        }
        return text.toString();
    }

    private static List<Long> toList(Iterable<Long> ids)
    {
        List<Long> list = new java.util.ArrayList<>();
        ids.forEach(list::add);
        return list;
    }

    /** The intent line: {@code I <batch> <kind> <rows> <deleted ids, comma-separated, or ->}. */
    String intentLine()
    {
        return "I " + batch + " " + kind + " " + rows + " " + (deleted.isEmpty() ? "-" : String.join(",", deleted.stream().map(String::valueOf).toList()));
    }

    static CommitContent parseIntent(String[] fields)
    {
        List<Long> deleted = fields[4].equals("-") ? List.of() : Arrays.stream(fields[4].split(",")).map(Long::parseLong).toList();
        return new CommitContent(Long.parseLong(fields[1]), Kind.valueOf(fields[2]), Integer.parseInt(fields[3]), deleted);
    }
}
