package io.moraine.spark;

import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.DeletedRowsTask;
import io.moraine.core.changes.InsertedRowsTask;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.DeleteFileRef;
import io.moraine.core.scan.ScanTaskCodec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A change feed's data-file tasks as bytes for an input partition: the file as the core's {@link ScanTaskCodec}
 * encodes it, then the task's range and (for deletions) its delete files, retirement and inlined deletes.
 */
final class ChangeTaskCodec
{
    private static final byte INSERTED = 1;
    private static final byte DELETED = 2;

    private ChangeTaskCodec() {}

    static byte[] encode(ChangeTask task)
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            switch (task) {
                case InsertedRowsTask inserted -> {
                    out.writeByte(INSERTED);
                    file(out, inserted.file());
                    out.writeLong(inserted.fromSnapshot());
                    out.writeLong(inserted.toSnapshot());
                }
                case DeletedRowsTask deleted -> {
                    out.writeByte(DELETED);
                    file(out, deleted.file());
                    out.writeLong(deleted.fromSnapshot());
                    out.writeLong(deleted.toSnapshot());
                    deleteFile(out, deleted.deleteFile());
                    deleteFile(out, deleted.previousDeleteFile());
                    out.writeBoolean(deleted.retiredAt().isPresent());
                    out.writeLong(deleted.retiredAt().orElse(0));
                    long[] positions = deleted.inlinedPositions();
                    long[] snapshots = deleted.inlinedSnapshots();
                    out.writeInt(positions.length);
                    for (int i = 0; i < positions.length; i++) {
                        out.writeLong(positions[i]);
                        out.writeLong(snapshots[i]);
                    }
                }
                default -> throw new IllegalArgumentException("not a data-file change task: " + task);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static ChangeTask decode(byte[] encoded)
    {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            byte kind = in.readByte();
            DataFileTask file = file(in);
            long from = in.readLong();
            long to = in.readLong();
            if (kind == INSERTED) {
                return new InsertedRowsTask(file, from, to);
            }
            Optional<DeleteFileRef> deleteFile = deleteFile(in);
            Optional<DeleteFileRef> previous = deleteFile(in);
            boolean retired = in.readBoolean();
            long retiredAt = in.readLong();
            int count = in.readInt();
            long[] positions = new long[count];
            long[] snapshots = new long[count];
            for (int i = 0; i < count; i++) {
                positions[i] = in.readLong();
                snapshots[i] = in.readLong();
            }
            return new DeletedRowsTask(file, deleteFile, previous, retired ? OptionalLong.of(retiredAt) : OptionalLong.empty(), positions, snapshots, from, to);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void file(DataOutputStream out, DataFileTask file)
            throws IOException
    {
        byte[] bytes = ScanTaskCodec.encode(file);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static DataFileTask file(DataInputStream in)
            throws IOException
    {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return (DataFileTask) ScanTaskCodec.decode(bytes);
    }

    private static void deleteFile(DataOutputStream out, Optional<DeleteFileRef> file)
            throws IOException
    {
        out.writeBoolean(file.isPresent());
        if (file.isPresent()) {
            out.writeUTF(file.get().path());
            out.writeBoolean(file.get().sizeBytes().isPresent());
            out.writeLong(file.get().sizeBytes().orElse(0));
            out.writeLong(file.get().beginSnapshot());
            out.writeUTF(file.get().format());
        }
    }

    private static Optional<DeleteFileRef> deleteFile(DataInputStream in)
            throws IOException
    {
        if (!in.readBoolean()) {
            return Optional.empty();
        }
        String path = in.readUTF();
        boolean sized = in.readBoolean();
        long size = in.readLong();
        return Optional.of(new DeleteFileRef(path, sized ? OptionalLong.of(size) : OptionalLong.empty(), in.readLong(), in.readUTF()));
    }
}
