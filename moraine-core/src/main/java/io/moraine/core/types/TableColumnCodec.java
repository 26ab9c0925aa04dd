package io.moraine.core.types;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.io.WireFormat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static io.moraine.core.io.WireFormat.readString;
import static io.moraine.core.io.WireFormat.writeString;

/**
 * A compact, versioned encoding of a list of columns (each a whole tree: id, name, DuckLake type name, initial
 * default, nullability and children), some of them absent (null), for shipping columns with the rows they describe to a reader that
 * has no catalog (an engine's worker). Types are rebuilt with {@link DuckLakeType#parse}, as from the catalog.
 */
public final class TableColumnCodec
{
    private static final byte VERSION = 2;

    private TableColumnCodec() {}

    /** {@code columns} (null entries allowed) as bytes. */
    public static byte[] encode(List<TableColumn> columns)
    {
        return WireFormat.encode(VERSION, out -> {
            out.writeInt(columns.size());
            for (TableColumn column : columns) {
                out.writeBoolean(column != null);
                if (column != null) {
                    write(out, column);
                }
            }
        });
    }

    /** The columns {@link #encode} wrote, null where it was given null. */
    public static List<TableColumn> decode(byte[] encoded)
    {
        return WireFormat.decode(encoded, VERSION, "a list of columns", in -> {
            int count = in.readInt();
            List<TableColumn> columns = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                columns.add(in.readBoolean() ? read(in) : null);
            }
            if (in.read() != -1) {
                throw new CorruptionException("encoded columns have trailing bytes");
            }
            return Arrays.asList(columns.toArray(TableColumn[]::new));
        });
    }

    private static void write(DataOutputStream out, TableColumn column)
            throws IOException
    {
        out.writeLong(column.columnId());
        writeString(out, column.name());
        writeString(out, column.type().duckLakeName());
        out.writeBoolean(column.initialDefault().isPresent());
        if (column.initialDefault().isPresent()) {
            writeString(out, column.initialDefault().get());
        }
        out.writeBoolean(column.nullable());
        List<TableColumn> children = column.children();
        out.writeInt(children.size());
        for (TableColumn child : children) {
            write(out, child);
        }
    }

    private static TableColumn read(DataInputStream in)
            throws IOException
    {
        long columnId = in.readLong();
        String name = readString(in);
        String typeName = readString(in);
        Optional<String> initialDefault = in.readBoolean() ? Optional.of(readString(in)) : Optional.empty();
        boolean nullable = in.readBoolean();
        int childCount = in.readInt();
        List<TableColumn> children = new ArrayList<>(childCount);
        for (int i = 0; i < childCount; i++) {
            children.add(read(in));
        }
        return new TableColumn(columnId, name, DuckLakeType.parse(name, typeName, children), initialDefault, nullable);
    }


}
