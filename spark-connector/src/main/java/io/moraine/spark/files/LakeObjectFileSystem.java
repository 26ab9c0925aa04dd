package io.moraine.spark.files;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.impl.OpenFileParameters;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.apache.parquet.io.InputFile;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * A Hadoop file system for a lake's {@code s3://} files, so that Spark's own Parquet reader and writer (which open files
 * through Hadoop) read and write DuckLake data and delete files on object storage without hadoop-aws: they go through
 * moraine's lake-files (Trino's native S3 client), configured from the same {@code AWS_*} environment variables as the
 * catalog store's client. It creates and deletes single files (a write's data and delete files, an aborted task's
 * clean-up); it neither lists, renames nor appends. Scans and writes use it only where the session maps no file system
 * of its own to {@code s3} ({@link LakeObjectFileSystems#configure}); it is never put in Hadoop's shared file-system cache.
 */
public final class LakeObjectFileSystem
        extends ReadOnlyFileSystem
{
    public LakeObjectFileSystem()
    {
        super("moraine's s3 file system");
    }

    @Override
    public String getScheme()
    {
        return "s3";
    }

    @Override
    public FSDataInputStream open(Path path, int bufferSize)
            throws IOException
    {
        return open(path, OptionalLong.empty());
    }

    /** Hadoop's {@code openFile(path).withFileStatus(status)} (parquet-java's way to open): no second length request. */
    @Override
    protected CompletableFuture<FSDataInputStream> openFileWithOptions(Path path, OpenFileParameters parameters)
            throws IOException
    {
        FileStatus status = parameters.getStatus();
        OptionalLong length = status == null ? OptionalLong.empty() : OptionalLong.of(status.getLen());
        return CompletableFuture.completedFuture(open(path, length));
    }

    private FSDataInputStream open(Path path, OptionalLong length)
            throws IOException
    {
        InputFile file = LakeObjectFileSystems.files().newInputFile(lakePath(path), length);
        return new FSDataInputStream(new LakeObjectInputStream(file.newStream()));
    }

    @Override
    public FileStatus getFileStatus(Path path)
            throws IOException
    {
        long length;
        try {
            length = LakeObjectFileSystems.files().newInputFile(lakePath(path), OptionalLong.empty()).getLength();
        }
        catch (FileNotFoundException e) {
            throw e;
        }
        catch (IOException e) {
            throw new IOException("cannot read the size of " + path + ": " + e.getMessage(), e);
        }
        return new FileStatus(length, false, 1, 32L << 20, 0, makeQualified(path));
    }

    /** A new object, written in one request or in parts (Trino's S3 output stream); overwriting deletes the old one first. */
    @Override
    public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite, int bufferSize, short replication, long blockSize, Progressable progress)
            throws IOException
    {
        org.apache.parquet.io.OutputFile file = LakeObjectFileSystems.files().newOutputFile(lakePath(path));
        return new FSDataOutputStream(overwrite ? file.createOrOverwrite(blockSize) : file.create(blockSize), statistics);
    }

    @Override
    public boolean delete(Path path, boolean recursive)
            throws IOException
    {
        LakeObjectFileSystems.files().deleteFile(lakePath(path));
        return true;
    }

    /** S3 has no directories: a file's "directory" exists once the file does. */
    @Override
    public boolean mkdirs(Path path, FsPermission permission)
    {
        return true;
    }

    private String lakePath(Path path)
    {
        return makeQualified(path).toUri().toString();
    }

    @Override
    public FileStatus[] listStatus(Path path)
    {
        throw new UnsupportedOperationException("moraine's s3 file system does not list " + path + ": it reads the files a moraine catalog names. "
                + "For other s3:// reads in this Spark session configure a Hadoop S3 file system (hadoop-aws: spark.hadoop.fs.s3.impl=org.apache.hadoop.fs.s3a.S3AFileSystem)");
    }
}
