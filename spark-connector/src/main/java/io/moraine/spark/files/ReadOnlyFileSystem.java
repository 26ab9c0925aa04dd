package io.moraine.spark.files;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

import java.io.IOException;
import java.net.URI;

/**
 * What moraine's Hadoop file systems share: the URI and working directory of one scheme and authority, and a
 * refusal, naming the file system, of every write it does not override ({@link LakeObjectFileSystem} creates and
 * deletes files).
 */
abstract class ReadOnlyFileSystem
        extends FileSystem
{
    private final String description;
    private URI uri;
    private Path workingDirectory;

    /** {@code description} names the file system in refusals, e.g. "moraine's s3 file system". */
    ReadOnlyFileSystem(String description)
    {
        this.description = description;
    }

    @Override
    public void initialize(URI name, Configuration configuration)
            throws IOException
    {
        super.initialize(name, configuration);
        setConf(configuration);
        uri = URI.create(getScheme() + "://" + (name.getAuthority() == null ? "" : name.getAuthority()));
        workingDirectory = new Path(uri.toString() + "/");
    }

    @Override
    public URI getUri()
    {
        return uri;
    }

    @Override
    public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite, int bufferSize, short replication, long blockSize, Progressable progress)
            throws IOException
    {
        throw readOnly("create " + path);
    }

    @Override
    public FSDataOutputStream append(Path path, int bufferSize, Progressable progress)
    {
        throw readOnly("append to " + path);
    }

    @Override
    public boolean rename(Path source, Path target)
    {
        throw readOnly("rename " + source);
    }

    @Override
    public boolean delete(Path path, boolean recursive)
            throws IOException
    {
        throw readOnly("delete " + path);
    }

    @Override
    public boolean mkdirs(Path path, FsPermission permission)
    {
        throw readOnly("create directory " + path);
    }

    @Override
    public void setWorkingDirectory(Path directory)
    {
        workingDirectory = directory;
    }

    @Override
    public Path getWorkingDirectory()
    {
        return workingDirectory;
    }

    private UnsupportedOperationException readOnly(String what)
    {
        return new UnsupportedOperationException(description + " is read-only (it serves moraine scans); cannot " + what);
    }
}
