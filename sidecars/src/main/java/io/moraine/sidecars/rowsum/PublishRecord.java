package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LakeFileSystem;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.SeekableInputStream;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The last publish pass's outcomes, kept beside the sidecars in {@code <data path>/_moraine/rowsum-publish.json} so
 * that {@code bin/moraine rowsum status} (or anyone with the lake's files) can read them later. Each pass overwrites
 * it. A small flat JSON object (one nested object: failures by reason), written and read here without a JSON library.
 */
public record PublishRecord(long snapshotId, Instant finishedAt, String scope, PublishOutcomes outcomes)
{
    public static final String RELATIVE_PATH = "_moraine/rowsum-publish.json";
    private static final int FORMAT = 1;

    public static String path(String dataPath)
    {
        return (dataPath.endsWith("/") ? dataPath : dataPath + "/") + RELATIVE_PATH;
    }

    public void write(LakeFileSystem files, String dataPath)
            throws IOException
    {
        try (PositionOutputStream out = files.newOutputFile(path(dataPath)).createOrOverwrite(0)) {
            out.write(toJson().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The record of the last pass that wrote one; empty when none did. */
    public static Optional<PublishRecord> read(LakeFileSystem files, String dataPath)
            throws IOException
    {
        String path = path(dataPath);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (SeekableInputStream in = files.newInputFile(path, OptionalLong.empty()).newStream()) {
            in.transferTo(bytes);
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return Optional.empty();
        }
        try {
            return Optional.of(fromJson(bytes.toString(StandardCharsets.UTF_8)));
        }
        catch (RuntimeException e) {
            throw new IOException(path + " is not a publish record of bin/moraine rowsum publish (" + e.getMessage()
                    + "); delete it or run rowsum publish again to rewrite it", e);
        }
    }

    String toJson()
    {
        StringBuilder json = new StringBuilder("{\n");
        json.append("  \"format\": ").append(FORMAT).append(",\n");
        json.append("  \"snapshot\": ").append(snapshotId).append(",\n");
        json.append("  \"finished_at\": \"").append(finishedAt).append("\",\n");
        json.append("  \"scope\": \"").append(escaped(scope)).append("\",\n");
        json.append("  \"published\": ").append(outcomes.published()).append(",\n");
        json.append("  \"already_published\": ").append(outcomes.alreadyPublished()).append(",\n");
        json.append("  \"dense\": ").append(outcomes.dense()).append(",\n");
        json.append("  \"failed\": ").append(outcomes.failed()).append(",\n");
        json.append("  \"retries\": ").append(outcomes.retries()).append(",\n");
        json.append("  \"bytes_written\": ").append(outcomes.bytesWritten()).append(",\n");
        json.append("  \"cancelled\": ").append(outcomes.cancelled()).append(",\n");
        json.append("  \"failed_by_reason\": {");
        String separator = "";
        for (Map.Entry<String, Long> reason : outcomes.failedByReason().entrySet()) {
            json.append(separator).append('"').append(escaped(reason.getKey())).append("\": ").append(reason.getValue());
            separator = ", ";
        }
        return json.append("}\n}\n").toString();
    }

    static PublishRecord fromJson(String text)
    {
        Map<String, Object> fields = new FlatJson(text).object();
        if (((Number) field(fields, "format")).intValue() != FORMAT) {
            throw new IllegalArgumentException("format " + fields.get("format") + ", this build reads format " + FORMAT);
        }
        Map<String, Long> reasons = new LinkedHashMap<>();
        @SuppressWarnings("unchecked")
        Map<String, Object> byReason = (Map<String, Object>) field(fields, "failed_by_reason");
        byReason.forEach((reason, count) -> reasons.put(reason, (Long) count));
        PublishOutcomes outcomes = new PublishOutcomes(number(fields, "published"), number(fields, "already_published"), number(fields, "dense"),
                number(fields, "failed"), number(fields, "retries"), number(fields, "bytes_written"), (Boolean) field(fields, "cancelled"), reasons);
        return new PublishRecord(number(fields, "snapshot"), Instant.parse((String) field(fields, "finished_at")), (String) field(fields, "scope"), outcomes);
    }

    private static Object field(Map<String, Object> fields, String name)
    {
        Object value = fields.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no field " + name);
        }
        return value;
    }

    private static long number(Map<String, Object> fields, String name)
    {
        return (Long) field(fields, name);
    }

    private static String escaped(String text)
    {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** Objects, strings (with {@code \\} and {@code \"} escapes), whole numbers and booleans: what {@link #toJson} writes. */
    private static final class FlatJson
    {
        private final String text;
        private int at;

        FlatJson(String text)
        {
            this.text = text;
        }

        Map<String, Object> object()
        {
            Map<String, Object> fields = new LinkedHashMap<>();
            expect('{');
            if (peek() == '}') {
                at++;
                return fields;
            }
            do {
                String name = string();
                expect(':');
                fields.put(name, value());
            }
            while (consume(','));
            expect('}');
            return fields;
        }

        private Object value()
        {
            char next = peek();
            if (next == '{') {
                return object();
            }
            if (next == '"') {
                return string();
            }
            if (text.startsWith("true", at) || text.startsWith("false", at)) {
                boolean value = text.startsWith("true", at);
                at += value ? 4 : 5;
                return value;
            }
            int start = at;
            while (at < text.length() && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '-')) {
                at++;
            }
            if (start == at) {
                throw new IllegalArgumentException("unexpected '" + next + "' at offset " + at);
            }
            return Long.parseLong(text.substring(start, at));
        }

        private String string()
        {
            expect('"');
            StringBuilder value = new StringBuilder();
            while (at < text.length() && text.charAt(at) != '"') {
                char c = text.charAt(at++);
                value.append(c == '\\' && at < text.length() ? text.charAt(at++) : c);
            }
            expect('"');
            return value.toString();
        }

        private boolean consume(char c)
        {
            if (peek() == c) {
                at++;
                return true;
            }
            return false;
        }

        private void expect(char c)
        {
            if (peek() != c) {
                throw new IllegalArgumentException("expected '" + c + "' at offset " + at);
            }
            at++;
        }

        private char peek()
        {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
            if (at >= text.length()) {
                throw new IllegalArgumentException("ends early");
            }
            return text.charAt(at);
        }
    }
}
