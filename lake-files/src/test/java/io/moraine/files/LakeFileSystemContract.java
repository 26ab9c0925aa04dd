package io.moraine.files;

import io.moraine.core.io.LakeFileSystem;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What every lake file system must do, run against each store by a subclass that says where its files go. */
abstract class LakeFileSystemContract
{
    /** The file system under test. */
    abstract LakeFileSystem files();

    /** A directory no other test uses, as a DuckLake path, without a trailing slash. */
    abstract String newDirectory();

    @Test
    void writesAFileAndReadsRangesOfIt()
            throws IOException
    {
        String path = newDirectory() + "/data.bin";
        byte[] content = bytes(300_000, 1);
        write(path, content);

        InputFile file = files().newInputFile(path, OptionalLong.empty());
        assertThat(file.getLength()).isEqualTo(content.length);
        try (SeekableInputStream in = file.newStream()) {
            byte[] head = new byte[100];
            in.readFully(head);
            assertThat(head).isEqualTo(slice(content, 0, 100));
            assertThat(in.getPos()).isEqualTo(100);

            in.seek(250_000);
            byte[] middle = new byte[40_000];
            in.readFully(middle);
            assertThat(middle).isEqualTo(slice(content, 250_000, 40_000));

            in.seek(content.length - 8);
            ByteBuffer tail = ByteBuffer.allocate(8);
            in.readFully(tail);
            assertThat(tail.array()).isEqualTo(slice(content, content.length - 8, 8));
            assertThat(in.read()).as("end of file").isEqualTo(-1);

            in.seek(3);
            assertThat(in.read()).as("a seek backwards").isEqualTo(content[3] & 0xFF);
        }
    }

    @Test
    void aKnownLengthIsTakenWithoutAskingTheStore()
            throws IOException
    {
        String path = newDirectory() + "/sized.bin";
        write(path, bytes(1000, 2));
        assertThat(files().newInputFile(path, OptionalLong.of(600)).getLength()).as("the catalog's length").isEqualTo(600);
        try (SeekableInputStream in = files().newInputFile(path, OptionalLong.of(1000)).newStream()) {
            in.seek(990);
            byte[] last = new byte[10];
            in.readFully(last);
            assertThat(last).isEqualTo(slice(bytes(1000, 2), 990, 10));
        }
    }

    @Test
    void theOutputStreamCountsItsPosition()
            throws IOException
    {
        String path = newDirectory() + "/counted.bin";
        try (PositionOutputStream out = files().newOutputFile(path).create(0)) {
            assertThat(out.getPos()).isZero();
            out.write(7);
            out.write(new byte[10]);
            out.write(new byte[20], 5, 12);
            assertThat(out.getPos()).isEqualTo(23);
        }
        assertThat(files().newInputFile(path, OptionalLong.empty()).getLength()).isEqualTo(23);
    }

    @Test
    void createOrOverwriteReplacesAFile()
            throws IOException
    {
        String path = newDirectory() + "/replaced.bin";
        write(path, bytes(500, 3));
        try (PositionOutputStream out = files().newOutputFile(path).createOrOverwrite(0)) {
            out.write(bytes(40, 4));
        }
        assertThat(read(path)).isEqualTo(bytes(40, 4));
    }

    @Test
    void listsEveryFileUnderADirectoryByItsLakePath()
            throws Exception
    {
        String directory = newDirectory();
        write(directory + "/a.parquet", bytes(10, 5));
        write(directory + "/k=1/b.parquet", bytes(10, 6));
        write(directory + "/k=1/deeper/c.parquet", bytes(10, 7));
        write(directory + "-sibling/d.parquet", bytes(10, 8));

        assertThat(files().listFiles(directory)).containsExactlyInAnyOrder(
                directory + "/a.parquet", directory + "/k=1/b.parquet", directory + "/k=1/deeper/c.parquet");
        assertThat(files().listFiles(directory + "/k=1/")).containsExactlyInAnyOrder(
                directory + "/k=1/b.parquet", directory + "/k=1/deeper/c.parquet");
        assertThat(files().listFiles(directory + "/nothing-here")).isEmpty();
    }

    @Test
    void listsEveryFileWithItsModificationTime()
            throws Exception
    {
        java.time.Instant before = java.time.Instant.now().minusSeconds(120);
        String directory = newDirectory();
        write(directory + "/a.parquet", bytes(10, 11));
        write(directory + "/k=1/b.parquet", bytes(10, 12));
        java.time.Instant after = java.time.Instant.now().plusSeconds(120);

        List<LakeFileSystem.ListedFile> listed = files().listFilesWithModificationTimes(directory);
        assertThat(listed).extracting(LakeFileSystem.ListedFile::path)
                .containsExactlyInAnyOrderElementsOf(files().listFiles(directory))
                .containsExactlyInAnyOrder(directory + "/a.parquet", directory + "/k=1/b.parquet");
        // clocks of object stores drift from ours: only a generous window is asserted
        assertThat(listed).allSatisfy(file -> assertThat(file.lastModified()).isBetween(before, after));
        assertThat(files().listFilesWithModificationTimes(directory + "/nothing-here")).isEmpty();
    }

    @Test
    void deletesAFileAndIgnoresAMissingOne()
            throws Exception
    {
        String directory = newDirectory();
        write(directory + "/doomed.parquet", bytes(10, 9));
        write(directory + "/kept.parquet", bytes(10, 10));

        files().deleteFile(directory + "/doomed.parquet");
        files().deleteFile(directory + "/never-written.parquet");

        assertThat(files().listFiles(directory)).containsExactly(directory + "/kept.parquet");
    }

    @Test
    void readingAMissingFileFailsNamingIt()
            throws Exception
    {
        String path = newDirectory() + "/missing.parquet";
        assertThatThrownBy(() -> files().newInputFile(path, OptionalLong.empty()).getLength())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("missing.parquet");
    }

    void write(String path, byte[] content)
            throws IOException
    {
        try (PositionOutputStream out = files().newOutputFile(path).create(0)) {
            out.write(content);
        }
    }

    byte[] read(String path)
            throws IOException
    {
        InputFile file = files().newInputFile(path, OptionalLong.empty());
        byte[] content = new byte[(int) file.getLength()];
        try (SeekableInputStream in = file.newStream()) {
            in.readFully(content);
        }
        return content;
    }

    static byte[] bytes(int length, long seed)
    {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static byte[] slice(byte[] bytes, int from, int length)
    {
        return java.util.Arrays.copyOfRange(bytes, from, from + length);
    }
}
