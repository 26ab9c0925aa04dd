package io.moraine.core.scan;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.io.WireFormat;
import io.moraine.core.catalog.NameMapEntry;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.moraine.core.io.WireFormat.readString;
import static io.moraine.core.io.WireFormat.writeString;
import static io.moraine.core.io.WireFormat.readOptional;
import static io.moraine.core.io.WireFormat.writeOptional;

/**
 * Scan tasks as compact bytes, for engines to ship to their workers (a Trino split, a Spark input partition) without a
 * serialization format of their own. The first byte is the encoding's version.
 */
public final class ScanTaskCodec
{
    private static final byte VERSION = 4;
    private static final byte DATA_FILE = 1;
    private static final byte INLINED_ROWS = 2;

    private ScanTaskCodec() {}

    public static byte[] encode(ScanTask task)
    {
        return WireFormat.encode(VERSION, out -> {
            switch (task) {
                case InlinedRowsTask inlined -> {
                    out.writeByte(INLINED_ROWS);
                    out.writeLong(inlined.tableId());
                    out.writeLong(inlined.snapshotId());
                    out.writeLong(inlined.plannedHead());
                    out.writeInt(inlined.schemaVersions().size());
                    for (long version : inlined.schemaVersions()) {
                        out.writeLong(version);
                    }
                }
                case DataFileTask file -> {
                    out.writeByte(DATA_FILE);
                    out.writeLong(file.tableId());
                    out.writeLong(file.snapshotId());
                    out.writeLong(file.dataFileId());
                    writeString(out, file.path());
                    out.writeLong(file.sizeBytes());
                    out.writeLong(file.recordCount());
                    writeOptional(out, file.footerSize());
                    writeOptional(out, file.rowIdStart());
                    out.writeLong(file.beginSnapshot());
                    writeOptional(out, file.partialMax());
                    out.writeInt(file.deleteFiles().size());
                    for (DeleteFileRef delete : file.deleteFiles()) {
                        writeString(out, delete.path());
                        writeOptional(out, delete.sizeBytes());
                        out.writeLong(delete.beginSnapshot());
                        writeString(out, delete.format());
                        writeCopy(out, delete.copy());
                    }
                    long[] deleted = file.inlinedDeletes();
                    out.writeInt(deleted.length);
                    for (long position : deleted) {
                        out.writeLong(position);
                    }
                    writeOptional(out, file.partitionId());
                    out.writeInt(file.partitionValues().size());
                    for (String value : file.partitionValues()) {
                        out.writeBoolean(value != null);
                        if (value != null) {
                            writeString(out, value);
                        }
                    }
                    out.writeLong(file.splitStart());
                    out.writeLong(file.splitLength());
                    writeCopy(out, file.copy());
                    out.writeBoolean(file.nameMapping().isPresent());
                    if (file.nameMapping().isPresent()) {
                        out.writeLong(file.nameMapping().get().mappingId());
                        writeEntries(out, file.nameMapping().get().columns());
                    }
                }
            }
        });
    }

    public static ScanTask decode(byte[] encoded)
    {
        return WireFormat.decode(encoded, VERSION, "a scan task", ScanTaskCodec::read);
    }

    private static ScanTask read(DataInputStream in)
            throws IOException
    {
        {
            byte kind = in.readByte();
            if (kind == INLINED_ROWS) {
                long tableId = in.readLong();
                long snapshotId = in.readLong();
                long plannedHead = in.readLong();
                List<Long> versions = new ArrayList<>();
                for (int i = in.readInt(); i > 0; i--) {
                    versions.add(in.readLong());
                }
                return new InlinedRowsTask(tableId, snapshotId, plannedHead, versions);
            }
            if (kind != DATA_FILE) {
                throw new CorruptionException("unknown scan task kind " + kind);
            }
            long tableId = in.readLong();
            long snapshotId = in.readLong();
            long dataFileId = in.readLong();
            String path = readString(in);
            long sizeBytes = in.readLong();
            long recordCount = in.readLong();
            OptionalLong footerSize = readOptional(in);
            OptionalLong rowIdStart = readOptional(in);
            long beginSnapshot = in.readLong();
            OptionalLong partialMax = readOptional(in);
            int deleteCount = in.readInt();
            List<DeleteFileRef> deletes = new ArrayList<>(deleteCount);
            for (int i = 0; i < deleteCount; i++) {
                deletes.add(new DeleteFileRef(readString(in), readOptional(in), in.readLong(), readString(in), readCopy(in)));
            }
            long[] inlined = new long[in.readInt()];
            for (int i = 0; i < inlined.length; i++) {
                inlined[i] = in.readLong();
            }
            OptionalLong partitionId = readOptional(in);
            int valueCount = in.readInt();
            List<String> values = new ArrayList<>(valueCount);
            for (int i = 0; i < valueCount; i++) {
                values.add(in.readBoolean() ? readString(in) : null);
            }
            return new DataFileTask(tableId, snapshotId, dataFileId, path, sizeBytes, recordCount, footerSize, rowIdStart, beginSnapshot, partialMax,
                    deletes, inlined, partitionId, values, in.readLong(), in.readLong(), readCopy(in), readMapping(in));
        }
    }

    private static void writeEntries(DataOutputStream out, List<NameMapEntry> entries)
            throws IOException
    {
        out.writeInt(entries.size());
        for (NameMapEntry entry : entries) {
            writeString(out, entry.sourceName());
            out.writeLong(entry.targetFieldId());
            writeEntries(out, entry.children());
        }
    }

    private static Optional<NameMapping> readMapping(DataInputStream in)
            throws IOException
    {
        if (!in.readBoolean()) {
            return Optional.empty();
        }
        long mappingId = in.readLong();
        return Optional.of(new NameMapping(mappingId, readEntries(in)));
    }

    private static List<NameMapEntry> readEntries(DataInputStream in)
            throws IOException
    {
        int count = in.readInt();
        List<NameMapEntry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String sourceName = readString(in);
            long targetFieldId = in.readLong();
            entries.add(new NameMapEntry(sourceName, targetFieldId, readEntries(in)));
        }
        return entries;
    }

    private static void writeCopy(DataOutputStream out, Optional<FileCopy> copy)
            throws IOException
    {
        out.writeInt(copy.map(FileCopy::length).orElse(-1));
        if (copy.isPresent()) {
            out.write(copy.get().array());
        }
    }

    private static Optional<FileCopy> readCopy(DataInputStream in)
            throws IOException
    {
        int length = in.readInt();
        if (length < 0) {
            return Optional.empty();
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return Optional.of(FileCopy.wrap(bytes));
    }
}
