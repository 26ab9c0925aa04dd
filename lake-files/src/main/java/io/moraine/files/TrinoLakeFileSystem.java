package io.moraine.files;

import io.moraine.core.io.LakeFileSystem;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputFile;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The lake's files through a Trino file system: a Trino connector passes its session's file system, other processes
 * get one from {@link LakeFileSystems}. DuckLake paths become Trino locations by {@link LakeLocations}.
 */
public final class TrinoLakeFileSystem
        implements LakeFileSystem
{
    private final TrinoFileSystem fileSystem;
    private final Function<String, Location> locations;

    public TrinoLakeFileSystem(TrinoFileSystem fileSystem)
    {
        this(fileSystem, LakeLocations::location);
    }

    /** {@code locations} maps DuckLake paths to locations of {@code fileSystem}, for paths beyond {@link LakeLocations}'. */
    TrinoLakeFileSystem(TrinoFileSystem fileSystem, Function<String, Location> locations)
    {
        this.fileSystem = fileSystem;
        this.locations = locations;
    }

    /** The file for Trino's own readers (its Parquet reader); {@code length} is the catalog's {@code file_size_bytes}. */
    public TrinoInputFile trinoInputFile(String path, long length)
    {
        return fileSystem.newInputFile(locations.apply(path), length);
    }

    @Override
    public InputFile newInputFile(String path, OptionalLong length)
    {
        Location location = locations.apply(path);
        TrinoInputFile file = length.isPresent() ? fileSystem.newInputFile(location, length.getAsLong()) : fileSystem.newInputFile(location);
        return new TrinoParquetInputFile(path, file);
    }

    @Override
    public OutputFile newOutputFile(String path)
    {
        return new TrinoParquetOutputFile(path, fileSystem, locations.apply(path));
    }

    @Override
    public void deleteFile(String path)
            throws IOException
    {
        fileSystem.deleteFile(locations.apply(path));
    }

    /** The files under {@code directory}, each named as {@code directory} is named (a local path stays a local path). */
    @Override
    public List<String> listFiles(String directory)
            throws IOException
    {
        List<String> paths = new ArrayList<>();
        for (ListedFile file : listFilesWithModificationTimes(directory)) {
            paths.add(file.path());
        }
        return paths;
    }

    @Override
    public List<ListedFile> listFilesWithModificationTimes(String directory)
            throws IOException
    {
        Location location = locations.apply(directory);
        String prefix = withSlash(directory);
        String locationPrefix = withSlash(location.toString());
        List<ListedFile> listed = new ArrayList<>();
        FileIterator files = fileSystem.listFiles(location);
        while (files.hasNext()) {
            io.trino.filesystem.FileEntry entry = files.next();
            String path = entry.location().toString();
            if (!path.startsWith(locationPrefix)) {
                throw new IOException("listing " + directory + " returned " + path + ", which is not under " + locationPrefix);
            }
            listed.add(new ListedFile(prefix + path.substring(locationPrefix.length()), entry.lastModified()));
        }
        return listed;
    }

    private static String withSlash(String directory)
    {
        return directory.endsWith("/") ? directory : directory + "/";
    }
}
