package io.moraine.files;

import io.moraine.core.io.LakeFileSystem;
import io.trino.filesystem.local.LocalFileSystemFactory;
import io.trino.spi.security.ConnectorIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The adapter over Trino's local file system, as a Trino connector whose lake is on local files uses it. */
class LocalTrinoLakeFileSystemTest
        extends LakeFileSystemContract
{
    private static final AtomicInteger DIRECTORIES = new AtomicInteger();

    @TempDir
    Path temp;

    private final LakeFileSystem files = new TrinoLakeFileSystem(new LocalFileSystemFactory(Path.of("/")).create(ConnectorIdentity.ofUser("test")));

    @Override
    LakeFileSystem files()
    {
        return files;
    }

    @Override
    String newDirectory()
    {
        return temp.resolve("dir-" + DIRECTORIES.incrementAndGet()).toString();
    }

    @Test
    void writesPlainPathsAndFileUrisToTheLocalFiles()
            throws IOException
    {
        write(temp.resolve("plain/a.bin").toString(), bytes(5, 11));
        write("file://" + temp.resolve("uri/b.bin"), bytes(6, 12));

        assertThat(Files.readAllBytes(temp.resolve("plain/a.bin"))).isEqualTo(bytes(5, 11));
        assertThat(Files.readAllBytes(temp.resolve("uri/b.bin"))).isEqualTo(bytes(6, 12));
        assertThat(files.newInputFile("file://" + temp.resolve("plain/a.bin"), OptionalLong.empty()).getLength()).isEqualTo(5);
        assertThat(files.listFiles("file://" + temp.resolve("uri"))).containsExactly("file://" + temp.resolve("uri/b.bin"));
    }

    @Test
    void creatingAFileThatExistsFailsNamingIt()
            throws IOException
    {
        String path = temp.resolve("taken.bin").toString();
        write(path, bytes(5, 13));
        assertThatThrownBy(() -> files.newOutputFile(path).create(0))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("creating " + path + " failed: ");
        assertThat(Files.readAllBytes(Path.of(path))).as("the file is untouched").isEqualTo(bytes(5, 13));
    }
}
