package io.moraine.core.inline.read;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableColumnCodec;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A bounded piece of a table's inlined rows, read from the store where the store is open (an engine's coordinator or
 * driver, {@link InlinedRowsPieces}) and shipped to where it is not (a worker or executor, {@link InlinedPieceReader}):
 * one Arrow IPC stream whose record batches hold, for the read columns a schema version has, their vectors as that
 * version wrote them (names and nested fields as then), followed by each row's {@code row_id}, {@code begin_snapshot}
 * and {@code end_snapshot}. The stream's schema metadata carries what a reader without a catalog needs to find the
 * columns by id: the read columns, each as the version wrote it (or absent), and its field in the stream. A piece's rows
 * all come from one schema version.
 *
 * @param arrowStream the piece's bytes (not copied)
 * @param rows how many rows it holds
 */
public record InlinedRowsPiece(byte[] arrowStream, long rows)
{
    /** The schema metadata key of a piece's layout. */
    static final String LAYOUT_KEY = "moraine.inlined_rows_piece";
    private static final byte LAYOUT_VERSION = 1;

    /**
     * How a piece's stream is laid out.
     *
     * @param columns the read columns (the reader's columns at the read snapshot, possibly pruned to nested fields)
     * @param writtenAs each read column as the piece's schema version wrote it, or null when the version lacks it
     * @param fields each read column's field in the stream, or -1 when the version lacks it; the three row columns
     *         ({@code row_id}, {@code begin_snapshot}, {@code end_snapshot}) are the stream's last three fields
     */
    record Layout(List<TableColumn> columns, List<TableColumn> writtenAs, int[] fields)
    {
        Map<String, String> toMetadata()
        {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeByte(LAYOUT_VERSION);
                writeBytes(out, TableColumnCodec.encode(columns));
                writeBytes(out, TableColumnCodec.encode(writtenAs));
                out.writeInt(fields.length);
                for (int field : fields) {
                    out.writeInt(field);
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Map.of(LAYOUT_KEY, Base64.getEncoder().encodeToString(bytes.toByteArray()));
        }

        static Layout of(Schema schema)
        {
            String encoded = schema.getCustomMetadata() == null ? null : schema.getCustomMetadata().get(LAYOUT_KEY);
            if (encoded == null) {
                throw new CorruptionException("an Arrow stream without " + LAYOUT_KEY + " metadata is not a piece of inlined rows");
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(encoded)))) {
                byte version = in.readByte();
                if (version != LAYOUT_VERSION) {
                    throw new CorruptionException("a piece of inlined rows has layout version " + version + "; this reader knows version " + LAYOUT_VERSION);
                }
                List<TableColumn> columns = TableColumnCodec.decode(in.readNBytes(in.readInt()));
                List<TableColumn> writtenAs = TableColumnCodec.decode(in.readNBytes(in.readInt()));
                int[] fields = new int[in.readInt()];
                for (int i = 0; i < fields.length; i++) {
                    fields[i] = in.readInt();
                }
                int userFields = schema.getFields().size() - 3;
                if (columns.size() != writtenAs.size() || columns.size() != fields.length || userFields < 0) {
                    throw new CorruptionException("a piece of inlined rows describes " + columns.size() + " columns inconsistently");
                }
                for (int i = 0; i < fields.length; i++) {
                    if (fields[i] < -1 || fields[i] >= userFields || (fields[i] < 0) != (writtenAs.get(i) == null)) {
                        throw new CorruptionException("a piece of inlined rows places column " + columns.get(i).name() + " at field " + fields[i]
                                + " of " + userFields);
                    }
                }
                return new Layout(columns, writtenAs, fields);
            }
            catch (IOException | IllegalArgumentException e) {
                throw new CorruptionException("a piece of inlined rows has a damaged layout: " + e.getMessage());
            }
        }

        private static void writeBytes(DataOutputStream out, byte[] bytes)
                throws IOException
        {
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }
}
