package io.moraine.core.inline;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.error.InvalidArgumentException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.HexFormat;

/**
 * The Arrow IPC encodings of the inline subspace: a schema-only stream per (table, schema version), and per chunk the
 * record-batch message and its buffers alone — no schema, no compression — decoded against the stored schema.
 */
public final class InlineArrow
{
    private static final byte SCHEMA_BYTES = 0;
    private static final byte SCHEMA_SAME_AS_VERSION = 1;
    private static final byte CHUNK_ENCODING = 1;
    private static final int CHUNK_HEADER = 1 + 8 + 4;

    private InlineArrow() {}

    /** A UUID as DuckDB's Arrow export carries it: 16 big-endian bytes in a fixed-size binary value. */
    public static java.util.UUID uuid(byte[] sixteenBytes)
    {
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(sixteenBytes);
        return new java.util.UUID(buffer.getLong(), buffer.getLong());
    }

    /** The value of an {@code inline/schema} record holding the schema itself. */
    public static byte[] encodeSchema(Schema schema)
    {
        for (Field field : schema.getFields()) {
            refuseDictionaries(field, field.getName());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(SCHEMA_BYTES);
        try {
            MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), schema);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The value of an {@code inline/schema} record that only refers to another version with identical bytes. */
    public static byte[] encodeSameAsVersion(long schemaVersion)
    {
        return ByteBuffer.allocate(9).put(SCHEMA_SAME_AS_VERSION).putLong(schemaVersion).array();
    }

    /** For a same-as-version reference, the version it names; empty for a record that holds its schema. */
    public static java.util.OptionalLong sameAsVersion(byte[] key, byte[] value)
    {
        if (value.length == 0) {
            throw corrupt(key, "empty schema record");
        }
        if (value[0] == SCHEMA_SAME_AS_VERSION) {
            if (value.length != 9) {
                throw corrupt(key, "malformed same-as-version reference");
            }
            return java.util.OptionalLong.of(ByteBuffer.wrap(value, 1, 8).getLong());
        }
        return java.util.OptionalLong.empty();
    }

    public static Schema decodeSchema(byte[] key, byte[] value)
    {
        if (value.length == 0 || value[0] != SCHEMA_BYTES) {
            throw corrupt(key, "not a schema stream");
        }
        try {
            return MessageSerializer.deserializeSchema(new ReadChannel(new ByteArrayReadableSeekableByteChannel(
                    java.util.Arrays.copyOfRange(value, 1, value.length))));
        }
        catch (IOException | RuntimeException e) {
            throw corrupt(key, "Arrow schema does not decode (" + e + ")");
        }
    }

    /** The value of an {@code inline/insert} record: row_id_start, row_count and the batch body. */
    public static byte[] encodeChunk(long rowIdStart, VectorSchemaRoot batch)
    {
        for (Field field : batch.getSchema().getFields()) {
            refuseDictionaries(field, field.getName());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ByteBuffer.allocate(CHUNK_HEADER).put(CHUNK_ENCODING).putLong(rowIdStart).putInt(batch.getRowCount()).array());
        try (ArrowRecordBatch recordBatch = new VectorUnloader(batch).getRecordBatch()) {
            MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), recordBatch);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A copy of an encoded chunk whose rows are renumbered from {@code rowIdStart} (a rebased commit's chunk). */
    public static byte[] withRowIdStart(byte[] chunk, long rowIdStart)
    {
        byte[] copy = chunk.clone();
        ByteBuffer.wrap(copy, 1, 8).putLong(rowIdStart);
        return copy;
    }

    /** The row span of a chunk, read from its header without decoding the body. */
    public static long rowIdStart(byte[] key, byte[] value)
    {
        checkChunkHeader(key, value);
        return ByteBuffer.wrap(value, 1, 8).getLong();
    }

    public static int rowCount(byte[] key, byte[] value)
    {
        checkChunkHeader(key, value);
        return ByteBuffer.wrap(value, 9, 4).getInt();
    }

    /** Decodes a chunk body against its version's schema into a new root owned by the caller. */
    public static VectorSchemaRoot decodeChunk(byte[] key, byte[] value, Schema schema, BufferAllocator allocator)
    {
        checkChunkHeader(key, value);
        int rows = rowCount(key, value);
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try (ArrowRecordBatch batch = MessageSerializer.deserializeRecordBatch(new ReadChannel(bodyChannel(value)), allocator)) {
            new VectorLoader(root).load(batch);
            if (root.getRowCount() != rows) {
                throw corrupt(key, "header says " + rows + " rows but the body holds " + root.getRowCount());
            }
            return root;
        }
        catch (IOException | RuntimeException e) {
            root.close();
            if (e instanceof CorruptionException corruption) {
                throw corruption;
            }
            throw corrupt(key, "Arrow record batch does not decode against its schema (" + e + ")");
        }
    }

    /** The record-batch message after the chunk header, read in place. */
    private static ByteArrayReadableSeekableByteChannel bodyChannel(byte[] value)
            throws IOException
    {
        ByteArrayReadableSeekableByteChannel channel = new ByteArrayReadableSeekableByteChannel(value);
        channel.position(CHUNK_HEADER);
        return channel;
    }

    private static void checkChunkHeader(byte[] key, byte[] value)
    {
        if (value.length < CHUNK_HEADER || value[0] != CHUNK_ENCODING) {
            throw corrupt(key, "chunk header is missing or of an unknown encoding");
        }
    }

    private static void refuseDictionaries(Field field, String path)
    {
        if (field.getDictionary() != null) {
            throw new InvalidArgumentException("column " + path + " is dictionary-encoded; inlined chunks carry no "
                    + "dictionaries, so decode the dictionary before inlining");
        }
        for (Field child : field.getChildren()) {
            refuseDictionaries(child, path + "." + child.getName());
        }
    }

    static CorruptionException corrupt(byte[] key, String problem)
    {
        return new CorruptionException("corrupt inline record under key " + HexFormat.of().formatHex(key) + ": " + problem
                + ". Restore the store from a checkpoint or backup (nothing else was changed).");
    }
}
