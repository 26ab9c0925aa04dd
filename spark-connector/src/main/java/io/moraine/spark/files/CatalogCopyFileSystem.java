package io.moraine.spark.files;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

import java.io.IOException;

/**
 * A read-only Hadoop file system over the catalog copies {@link CatalogCopies} has open ({@code moraine-copy://...}), so
 * that Spark's own vectorized Parquet reader reads a tiny file's bytes from its scan task instead of the object store.
 */
public final class CatalogCopyFileSystem
        extends ReadOnlyFileSystem
{
    public CatalogCopyFileSystem()
    {
        super("moraine's catalog-copy file system");
    }

    @Override
    public String getScheme()
    {
        return CatalogCopies.SCHEME;
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
    public FileStatus[] listStatus(Path path)
    {
        throw new UnsupportedOperationException("moraine's catalog-copy file system serves the copies of open scan tasks only; it does not list " + path);
    }
}
