package io.moraine.core.io;

import io.moraine.core.error.UnsupportedFeatureException;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/** The lake's files on the local file system: plain absolute paths, as DuckLake records them, and {@code file://} URIs. */
public final class LocalFileSystem
        implements LakeFileSystem
{
    public static final LocalFileSystem INSTANCE = new LocalFileSystem();

    private LocalFileSystem() {}

    /** The local path of a resolved DuckLake path; refuses object-store URIs, naming the path. */
    public static Path localPath(String path)
    {
        String local = path.startsWith("file://") ? path.substring("file://".length()) : path;
        if (local.contains("://")) {
            throw new UnsupportedFeatureException("the lake file " + path + " is on an object store, but this file system reads "
                    + "local files only; use a file system for that store");
        }
        return Path.of(local);
    }

    @Override
    public InputFile newInputFile(String path, OptionalLong length)
    {
        return new ChannelInputFile(localPath(path));
    }

    @Override
    public OutputFile newOutputFile(String path)
    {
        Path file = localPath(path);
        return new LocalOutputFile(file)
        {
            @Override
            public PositionOutputStream create(long blockSize)
                    throws IOException
            {
                Files.createDirectories(file.toAbsolutePath().getParent());
                return super.create(blockSize);
            }

            @Override
            public PositionOutputStream createOrOverwrite(long blockSize)
                    throws IOException
            {
                Files.createDirectories(file.toAbsolutePath().getParent());
                return super.createOrOverwrite(blockSize);
            }
        };
    }

    @Override
    public void deleteFile(String path)
            throws IOException
    {
        Files.deleteIfExists(localPath(path));
    }

    @Override
    public List<String> listFiles(String directory)
            throws IOException
    {
        Path root = localPath(directory);
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(Files::isRegularFile).map(Path::toString).toList();
        }
        catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public List<ListedFile> listFilesWithModificationTimes(String directory)
            throws IOException
    {
        List<ListedFile> listed = new java.util.ArrayList<>();
        for (String path : listFiles(directory)) {
            try {
                listed.add(new ListedFile(path, Files.getLastModifiedTime(Path.of(path)).toInstant()));
            }
            catch (java.nio.file.NoSuchFileException e) {
                // deleted since it was listed
            }
        }
        return listed;
    }
}
