package io.moraine.spark.files;

import io.moraine.files.S3LakeFiles;
import org.apache.hadoop.conf.Configuration;

/**
 * Where a scan's or a write's Hadoop configuration gets a file system for the lake's {@code s3://} files. A session
 * that maps {@code s3} itself ({@code spark.hadoop.fs.s3.impl}: hadoop-aws's S3A, EMRFS, ...) keeps its own; otherwise
 * the scan's or write's private configuration maps it to {@link LakeObjectFileSystem}, uncached so that no other user
 * of the session is handed it. One set of clients per JVM (driver or executor), configured from the process environment.
 */
public final class LakeObjectFileSystems
{
    private static final String IMPL = "fs.s3.impl";

    private static volatile S3LakeFiles files;

    private LakeObjectFileSystems() {}

    /**
     * Maps {@code s3} to moraine's file system in {@code configuration} (a scan's or write's private copy) unless it is mapped already,
     * and {@code moraine-copy} to the catalog copies of tiny files ({@link CatalogCopies}).
     */
    public static Configuration configure(Configuration configuration)
    {
        CatalogCopies.configure(configuration);
        if (configuration.get(IMPL) == null) {
            configuration.set(IMPL, LakeObjectFileSystem.class.getName());
            configuration.setBoolean("fs.s3.impl.disable.cache", true);
        }
        return configuration;
    }

    static S3LakeFiles files()
    {
        S3LakeFiles opened = files;
        if (opened == null) {
            synchronized (LakeObjectFileSystems.class) {
                opened = files;
                if (opened == null) {
                    opened = S3LakeFiles.fromEnvironment(System.getenv());
                    files = opened;
                }
            }
        }
        return opened;
    }
}
