package io.moraine.spark.files;

import io.moraine.core.scan.FileCopy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The catalog's copies of tiny files that readers in this JVM have open, served to Spark's Parquet reader (which opens
 * files by Hadoop path) as {@code moraine-copy://<token>/<file name>} through {@link CatalogCopyFileSystem}. A copy travels
 * in its scan task to the executor; it is registered while its file's reader is open and removed when it closes.
 */
public final class CatalogCopies
{
    public static final String SCHEME = "moraine-copy";

    private static final Map<String, ByteBuffer> OPEN = new ConcurrentHashMap<>();

    private CatalogCopies() {}

    /** Maps {@code moraine-copy} to {@link CatalogCopyFileSystem} in {@code configuration} (a scan's private copy). */
    public static Configuration configure(Configuration configuration)
    {
        configuration.set("fs." + SCHEME + ".impl", CatalogCopyFileSystem.class.getName());
        configuration.setBoolean("fs." + SCHEME + ".impl.disable.cache", true);
        return configuration;
    }

    /** Serves {@code copy} (the bytes of the file at {@code path}) until the registration is closed. */
    public static Registration register(FileCopy copy, String path)
    {
        String token = UUID.randomUUID().toString();
        OPEN.put(token, copy.buffer());
        String name = path.substring(path.lastIndexOf('/') + 1);
        return new Registration(token, new Path(SCHEME + "://" + token + "/" + (name.isEmpty() ? "copy.parquet" : name)), copy.length());
    }

    /** The bytes at {@code uri}, positioned at 0 and independent of other readers of them. */
    static ByteBuffer bytes(URI uri)
            throws FileNotFoundException
    {
        ByteBuffer bytes = uri.getAuthority() == null ? null : OPEN.get(uri.getAuthority());
        if (bytes == null) {
            throw new FileNotFoundException("no catalog copy is open at " + uri + ": copies are served only while the scan task that carries them "
                    + "is being read");
        }
        return bytes.duplicate();
    }

    /** How many copies are open in this JVM (for tests). */
    public static int openCount()
    {
        return OPEN.size();
    }

    /** A copy served at {@code path} ({@code length} bytes) until closed. */
    public record Registration(String token, Path path, long length)
            implements AutoCloseable
    {
        @Override
        public void close()
        {
            OPEN.remove(token);
        }
    }
}
