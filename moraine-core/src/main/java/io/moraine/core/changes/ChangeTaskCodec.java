package io.moraine.core.changes;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.io.WireFormat;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.DeleteFileRef;
import io.moraine.core.scan.ScanTaskCodec;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.moraine.core.io.WireFormat.readString;
import static io.moraine.core.io.WireFormat.writeString;
import static io.moraine.core.io.WireFormat.readLongs;
import static io.moraine.core.io.WireFormat.readOptional;
import static io.moraine.core.io.WireFormat.writeLongs;
import static io.moraine.core.io.WireFormat.writeOptional;

/**
 * {@link ChangeGroup}s as compact bytes, for engines to ship to their workers as {@link ScanTaskCodec} ships scan tasks;
 * a task's data file is in {@link ScanTaskCodec}'s encoding. The first byte is the encoding's version.
 */
public final class ChangeTaskCodec
{
    private static final byte VERSION = 2;
    private static final byte INSERTED_ROWS = 1;
    private static final byte DELETED_ROWS = 2;
    private static final byte INLINED_CHANGES = 3;

    private ChangeTaskCodec() {}

    public static byte[] encode(ChangeGroup group)
    {
        return WireFormat.encode(VERSION, out -> {
            out.writeLong(group.firstSnapshot());
            out.writeLong(group.lastSnapshot());
            out.writeInt(group.tasks().size());
            for (ChangeTask task : group.tasks()) {
                write(out, task);
            }
            out.writeInt(group.keyTasks().size());
            for (ChangeTask task : group.keyTasks()) {
                write(out, task);
            }
        });
    }

    public static ChangeGroup decode(byte[] encoded)
    {
        return WireFormat.decode(encoded, VERSION, "a change task", in -> {
            long first = in.readLong();
            long last = in.readLong();
            List<ChangeTask> tasks = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                tasks.add(read(in));
            }
            List<ChangeTask> keyTasks = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                keyTasks.add(read(in));
            }
            return new ChangeGroup(first, last, tasks, keyTasks);
        });
    }

    /**
     * One task alone, for an engine that reads a change feed's tasks one by one and pairs their rows itself (the group's
     * snapshot range is unused then).
     */
    public static byte[] encode(ChangeTask task)
    {
        return encode(new ChangeGroup(0, Long.MAX_VALUE, List.of(task)));
    }

    /** The task {@link #encode(ChangeTask)} encoded. */
    public static ChangeTask decodeTask(byte[] encoded)
    {
        ChangeGroup group = decode(encoded);
        if (group.tasks().size() != 1) {
            throw new CorruptionException("expected one encoded change task, found " + group.tasks().size() + "; encode a single task with encode(ChangeTask)");
        }
        return group.tasks().getFirst();
    }

    private static void write(DataOutputStream out, ChangeTask task)
            throws IOException
    {
        switch (task) {
            case InsertedRowsTask inserted -> {
                out.writeByte(INSERTED_ROWS);
                writeFile(out, inserted.file());
                out.writeLong(inserted.fromSnapshot());
                out.writeLong(inserted.toSnapshot());
            }
            case DeletedRowsTask deleted -> {
                out.writeByte(DELETED_ROWS);
                writeFile(out, deleted.file());
                writeDeleteFile(out, deleted.deleteFile());
                writeDeleteFile(out, deleted.previousDeleteFile());
                out.writeBoolean(deleted.retiredAt().isPresent());
                if (deleted.retiredAt().isPresent()) {
                    out.writeLong(deleted.retiredAt().getAsLong());
                }
                writeLongs(out, deleted.inlinedPositions());
                writeLongs(out, deleted.inlinedSnapshots());
                out.writeLong(deleted.fromSnapshot());
                out.writeLong(deleted.toSnapshot());
            }
            case InlinedChangesTask inlined -> {
                out.writeByte(INLINED_CHANGES);
                out.writeLong(inlined.tableId());
                out.writeByte(inlined.kind().ordinal());
                out.writeLong(inlined.endSnapshotId());
                out.writeLong(inlined.plannedHead());
                out.writeLong(inlined.fromSnapshot());
                out.writeLong(inlined.toSnapshot());
                writeLongs(out, inlined.schemaVersions().stream().mapToLong(Long::longValue).toArray());
            }
        }
    }

    private static ChangeTask read(DataInputStream in)
            throws IOException
    {
        byte kind = in.readByte();
        return switch (kind) {
            case INSERTED_ROWS -> new InsertedRowsTask(readFile(in), in.readLong(), in.readLong());
            case DELETED_ROWS -> {
                DataFileTask file = readFile(in);
                Optional<DeleteFileRef> deleteFile = readDeleteFile(in);
                Optional<DeleteFileRef> previous = readDeleteFile(in);
                OptionalLong retiredAt = in.readBoolean() ? OptionalLong.of(in.readLong()) : OptionalLong.empty();
                long[] positions = readLongs(in);
                long[] snapshots = readLongs(in);
                yield new DeletedRowsTask(file, deleteFile, previous, retiredAt, positions, snapshots, in.readLong(), in.readLong());
            }
            case INLINED_CHANGES -> {
                long tableId = in.readLong();
                ChangeKind side = ChangeKind.values()[in.readByte()];
                long endSnapshotId = in.readLong();
                long plannedHead = in.readLong();
                long from = in.readLong();
                long to = in.readLong();
                List<Long> versions = java.util.Arrays.stream(readLongs(in)).boxed().toList();
                yield new InlinedChangesTask(tableId, side, endSnapshotId, plannedHead, from, to, versions);
            }
            default -> throw new CorruptionException("unknown change task kind " + kind);
        };
    }

    private static void writeFile(DataOutputStream out, DataFileTask file)
            throws IOException
    {
        byte[] encoded = ScanTaskCodec.encode(file);
        out.writeInt(encoded.length);
        out.write(encoded);
    }

    private static DataFileTask readFile(DataInputStream in)
            throws IOException
    {
        if (ScanTaskCodec.decode(in.readNBytes(in.readInt())) instanceof DataFileTask file) {
            return file;
        }
        throw new CorruptionException("a change task's data file decoded as another kind of scan task");
    }

    private static void writeDeleteFile(DataOutputStream out, Optional<DeleteFileRef> file)
            throws IOException
    {
        out.writeBoolean(file.isPresent());
        if (file.isPresent()) {
            DeleteFileRef ref = file.get();
            writeString(out, ref.path());
            writeOptional(out, ref.sizeBytes());
            out.writeLong(ref.beginSnapshot());
            writeString(out, ref.format());
        }
    }

    private static Optional<DeleteFileRef> readDeleteFile(DataInputStream in)
            throws IOException
    {
        if (!in.readBoolean()) {
            return Optional.empty();
        }
        String path = readString(in);
        OptionalLong size = readOptional(in);
        return Optional.of(new DeleteFileRef(path, size, in.readLong(), readString(in)));
    }




}
