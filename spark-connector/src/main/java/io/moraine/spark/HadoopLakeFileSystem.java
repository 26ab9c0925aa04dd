package io.moraine.spark;

import io.moraine.core.error.StoreException;
import io.moraine.core.io.LakeFileSystem;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;

/**
 * The lake's files through Hadoop's file systems (Spark's: {@code file:}, {@code s3a:}, ...), for reading delete files
 * and footers on executors. A DuckLake path without a scheme is a local path. The driver of a DELETE, UPDATE or MERGE
 * also writes and deletes delete files through it (the core's write transaction does); executors only read.
 */
final class HadoopLakeFileSystem
        implements LakeFileSystem
{
    private final Configuration configuration;

    HadoopLakeFileSystem(Configuration configuration)
    {
        this.configuration = configuration;
    }

    /** A DuckLake path as a Hadoop path: local paths become {@code file:} URIs, URIs stay as they are. */
    static Path hadoopPath(String path)
    {
        if (path.startsWith("/")) {
            return new Path(new java.io.File(path).toURI());
        }
        return new Path(path);
    }

    @Override
    public InputFile newInputFile(String path, OptionalLong length)
    {
        try {
            return HadoopInputFile.fromPath(hadoopPath(path), configuration);
        }
        catch (java.io.FileNotFoundException e) {
            // absent is an answer for some readers (a row summary not published): they meet it as an IOException on open
            return new MissingInputFile(e);
        }
        catch (IOException e) {
            throw new StoreException("cannot open " + path + " through Hadoop: " + e.getMessage(), e);
        }
    }

    @Override
    public OutputFile newOutputFile(String path)
    {
        try {
            return org.apache.parquet.hadoop.util.HadoopOutputFile.fromPath(hadoopPath(path), configuration);
        }
        catch (IOException e) {
            throw new StoreException("cannot create " + path + " through Hadoop: " + e.getMessage(), e);
        }
    }

    @Override
    public void deleteFile(String path)
            throws IOException
    {
        Path file = hadoopPath(path);
        file.getFileSystem(configuration).delete(file, false);
    }

    @Override
    public List<String> listFiles(String directory)
            throws IOException
    {
        List<String> paths = new java.util.ArrayList<>();
        for (ListedFile file : listFilesWithModificationTimes(directory)) {
            paths.add(file.path());
        }
        return paths;
    }

    @Override
    public List<ListedFile> listFilesWithModificationTimes(String directory)
            throws IOException
    {
        Path root = hadoopPath(directory);
        org.apache.hadoop.fs.FileSystem fileSystem = root.getFileSystem(configuration);
        List<ListedFile> listed = new java.util.ArrayList<>();
        if (!fileSystem.exists(root)) {
            return listed;
        }
        org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files = fileSystem.listFiles(root, true);
        while (files.hasNext()) {
            org.apache.hadoop.fs.LocatedFileStatus status = files.next();
            Path file = status.getPath();
            listed.add(new ListedFile(directory.startsWith("/") ? file.toUri().getPath() : file.toString(),
                    java.time.Instant.ofEpochMilli(status.getModificationTime())));
        }
        return listed;
    }

    /** A file that does not exist: every open says so. */
    private record MissingInputFile(java.io.FileNotFoundException cause)
            implements InputFile
    {
        @Override
        public long getLength()
                throws IOException
        {
            throw missing();
        }

        @Override
        public org.apache.parquet.io.SeekableInputStream newStream()
                throws IOException
        {
            throw missing();
        }

        private java.io.FileNotFoundException missing()
        {
            java.io.FileNotFoundException missing = new java.io.FileNotFoundException(cause.getMessage());
            missing.initCause(cause);
            return missing;
        }
    }
}
