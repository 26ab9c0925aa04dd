package io.moraine.trino;

import io.moraine.inline.DataFiles;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoInputStream;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

import java.io.IOException;
import java.util.OptionalLong;

/**
 * The lake's files as Trino's file system sees them. DuckLake records local files as plain absolute paths; Trino's
 * local file system names them {@code local:///...} (rooted at {@code local.location}, which the connector sets to
 * {@code /}). Object-store URIs ({@code s3://...}) pass through unchanged.
 */
final class LakeFiles
        implements DataFiles
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

    /** Delete files for the engine-free visibility code, as parquet-java input files over Trino's file system. */
    @Override
    public InputFile open(String path, OptionalLong sizeBytes)
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
}
