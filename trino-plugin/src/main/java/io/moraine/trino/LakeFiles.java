package io.moraine.trino;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.io.LakeFileSystem;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoInputStream;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.SeekableInputStream;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The lake's files as Trino's file system sees them. DuckLake records local files as plain absolute paths; Trino's
 * local file system names them {@code local:///...} (rooted at {@code local.location}, which the connector sets to
 * {@code /}). Object-store URIs ({@code s3://...}) pass through unchanged.
 */
final class LakeFiles
        implements LakeFileSystem
{
    private final TrinoFileSystem fileSystem;

    LakeFiles(TrinoFileSystem fileSystem)
    {
        this.fileSystem = fileSystem;
    }

    static Location location(String path)
    {
        if (path.startsWith("/")) {
            return Location.of("local://" + path);
        }
        if (path.startsWith("file:///")) {
            return Location.of("local://" + path.substring("file://".length()));
        }
        return Location.of(path);
    }

    TrinoInputFile inputFile(String path, long length)
    {
        return fileSystem.newInputFile(location(path), length);
    }

    /** Delete files for the core's visibility rules, as parquet-java input files over Trino's file system. */
    @Override
    public InputFile newInputFile(String path, OptionalLong sizeBytes)
    {
        TrinoInputFile file = sizeBytes.isPresent() ? fileSystem.newInputFile(location(path), sizeBytes.getAsLong()) : fileSystem.newInputFile(location(path));
        return new InputFile()
        {
            @Override
            public long getLength()
                    throws IOException
            {
                return file.length();
            }

            @Override
            public SeekableInputStream newStream()
                    throws IOException
            {
                TrinoInputStream stream = file.newStream();
                return new DelegatingSeekableInputStream(stream)
                {
                    @Override
                    public long getPos()
                            throws IOException
                    {
                        return stream.getPosition();
                    }

                    @Override
                    public void seek(long position)
                            throws IOException
                    {
                        stream.seek(position);
                    }
                };
            }

            @Override
            public String toString()
            {
                return file.location().toString();
            }
        };
    }

    @Override
    public OutputFile newOutputFile(String path)
    {
        throw new UnsupportedFeatureException("the Trino connector reads lakes and writes no files (asked to write " + path + ")");
    }

    @Override
    public void deleteFile(String path)
            throws IOException
    {
        throw new UnsupportedFeatureException("the Trino connector reads lakes and deletes no files (asked to delete " + path + ")");
    }

    @Override
    public List<String> listFiles(String directory)
            throws IOException
    {
        List<String> paths = new ArrayList<>();
        FileIterator files = fileSystem.listFiles(location(directory));
        while (files.hasNext()) {
            paths.add(files.next().location().toString());
        }
        return paths;
    }
}
