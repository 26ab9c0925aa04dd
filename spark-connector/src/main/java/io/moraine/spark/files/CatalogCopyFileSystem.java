package io.moraine.spark.files;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

import java.io.IOException;
import java.net.URI;

/**
 * A read-only Hadoop file system over the catalog copies {@link CatalogCopies} has open ({@code moraine-copy://...}), so
 * that Spark's own vectorized Parquet reader reads a tiny file's bytes from its scan task instead of the object store.
 */
public final class CatalogCopyFileSystem
        extends FileSystem
{
    private URI uri;
    private Path workingDirectory;

    @Override
    public void initialize(URI name, Configuration configuration)
            throws IOException
    {
        super.initialize(name, configuration);
        setConf(configuration);
        uri = URI.create(CatalogCopies.SCHEME + "://" + (name.getAuthority() == null ? "" : name.getAuthority()));
        workingDirectory = new Path(uri.toString() + "/");
    }

    @Override
    public String getScheme()
    {
        return CatalogCopies.SCHEME;
    }

    @Override
    public URI getUri()
    {
        return uri;
    }

    @Override
    public FSDataInputStream open(Path path, int bufferSize)
            throws IOException
    {
        return new FSDataInputStream(new CopyInputStream(CatalogCopies.bytes(makeQualified(path).toUri())));
    }

    @Override
    public FileStatus getFileStatus(Path path)
            throws IOException
    {
        Path qualified = makeQualified(path);
        return new FileStatus(CatalogCopies.bytes(qualified.toUri()).remaining(), false, 1, 32L << 20, 0, qualified);
    }

    @Override
    public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite, int bufferSize, short replication, long blockSize, Progressable progress)
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
    {
        throw readOnly("delete " + path);
    }

    @Override
    public FileStatus[] listStatus(Path path)
    {
        throw new UnsupportedOperationException("moraine's catalog-copy file system serves the copies of open scan tasks only; it does not list " + path);
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

    private static UnsupportedOperationException readOnly(String what)
    {
        return new UnsupportedOperationException("moraine's catalog-copy file system is read-only; cannot " + what);
    }
}
