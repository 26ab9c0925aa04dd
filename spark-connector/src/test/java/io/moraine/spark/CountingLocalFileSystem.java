package io.moraine.spark;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hadoop's local file system, counting the opens of each file (a test's {@code spark.hadoop.fs.file.impl}, uncached):
 * every read of a lake file by Spark's Parquet reader or the connector's footer and delete-file reads goes through it.
 */
public final class CountingLocalFileSystem
        extends LocalFileSystem
{
    private static final Map<String, AtomicInteger> OPENS = new ConcurrentHashMap<>();

    @Override
    public FSDataInputStream open(Path path, int bufferSize)
            throws IOException
    {
        OPENS.computeIfAbsent(path.toUri().getPath(), ignored -> new AtomicInteger()).incrementAndGet();
        return super.open(path, bufferSize);
    }

    /** The opens counted so far, by file path; cleared. */
    static Map<String, Integer> drain()
    {
        Map<String, Integer> opens = new java.util.TreeMap<>();
        for (String path : OPENS.keySet()) {
            AtomicInteger count = OPENS.remove(path);
            if (count != null) {
                opens.put(path, count.get());
            }
        }
        return opens;
    }
}
