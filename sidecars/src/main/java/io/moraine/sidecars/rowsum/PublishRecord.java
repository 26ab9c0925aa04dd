package io.moraine.sidecars.rowsum;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * it. A small flat JSON object (one nested object: failures by reason), written and read with Jackson.
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

    private static final ObjectMapper JSON = new ObjectMapper();

    String toJson()
    {
        ObjectNode json = JSON.createObjectNode()
                .put("format", FORMAT)
                .put("snapshot", snapshotId)
                .put("finished_at", finishedAt.toString())
                .put("scope", scope)
                .put("published", outcomes.published())
                .put("already_published", outcomes.alreadyPublished())
                .put("dense", outcomes.dense())
                .put("failed", outcomes.failed())
                .put("retries", outcomes.retries())
                .put("bytes_written", outcomes.bytesWritten())
                .put("cancelled", outcomes.cancelled());
        ObjectNode byReason = json.putObject("failed_by_reason");
        outcomes.failedByReason().forEach(byReason::put);
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n";
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException("a publish record did not serialize: " + e.getMessage(), e);
        }
    }

    static PublishRecord fromJson(String text)
    {
        JsonNode fields;
        try {
            fields = JSON.readTree(text);
        }
        catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
        if (field(fields, "format").asInt() != FORMAT) {
            throw new IllegalArgumentException("format " + fields.get("format") + ", this build reads format " + FORMAT);
        }
        Map<String, Long> reasons = new LinkedHashMap<>();
        field(fields, "failed_by_reason").properties().forEach(reason -> reasons.put(reason.getKey(), reason.getValue().asLong()));
        PublishOutcomes outcomes = new PublishOutcomes(number(fields, "published"), number(fields, "already_published"), number(fields, "dense"),
                number(fields, "failed"), number(fields, "retries"), number(fields, "bytes_written"), field(fields, "cancelled").asBoolean(), reasons);
        return new PublishRecord(number(fields, "snapshot"), Instant.parse(field(fields, "finished_at").asText()), field(fields, "scope").asText(), outcomes);
    }

    private static JsonNode field(JsonNode fields, String name)
    {
        JsonNode value = fields.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("no field " + name);
        }
        return value;
    }

    private static long number(JsonNode fields, String name)
    {
        return field(fields, name).asLong();
    }
}
