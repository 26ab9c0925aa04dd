package io.moraine.files;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.io.LakeFileSystem;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.local.LocalFileSystemFactory;
import io.trino.filesystem.switching.SwitchingFileSystemFactory;
import io.trino.spi.security.ConnectorIdentity;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The lake's files for a process that is not Trino (the command line, the flush, benchmarks), through Trino's native
 * file systems chosen by the path's URI scheme: local paths and {@code file://}; {@code s3://} (and {@code s3a://},
 * {@code s3n://}); {@code gs://}; {@code az://}, {@code abfs[s]://} and {@code wasb[s]://}. Each is configured from
 * environment variables ({@link S3Environment}, {@link GcsEnvironment}, {@link AzureEnvironment}) when a path of its
 * scheme is first used, so a lake on local files needs no cloud settings. Close it to release the clients.
 */
public final class LakeFileSystems
        implements LakeFileSystem, AutoCloseable
{
    private static final String SCHEMES = "local paths, file://, s3://, gs://, az://, abfs[s]:// and wasb[s]://";

    private final Environment environment;
    private final AzureEnvironment azure;
    private final Map<String, SchemeFileSystem> opened = new ConcurrentHashMap<>();
    private final TrinoLakeFileSystem files;

    private LakeFileSystems(Environment environment)
    {
        this.environment = environment;
        this.azure = new AzureEnvironment(environment);
        ConnectorIdentity identity = ConnectorIdentity.forUser("moraine")
                .withExtraCredentials(S3Environment.identityCredentials(environment))
                .build();
        this.files = new TrinoLakeFileSystem(new SwitchingFileSystemFactory(this::factory).create(identity), this::location);
    }

    /** The file systems configured from {@code environment}: a process passes {@code System.getenv()}. */
    public static LakeFileSystems fromEnvironment(Map<String, String> environment)
    {
        return new LakeFileSystems(new Environment(environment));
    }

    @Override
    public InputFile newInputFile(String path, OptionalLong length)
    {
        return files.newInputFile(path, length);
    }

    @Override
    public OutputFile newOutputFile(String path)
    {
        return files.newOutputFile(path);
    }

    @Override
    public void deleteFile(String path)
            throws IOException
    {
        files.deleteFile(path);
    }

    @Override
    public List<String> listFiles(String directory)
            throws IOException
    {
        return files.listFiles(directory);
    }

    @Override
    public List<ListedFile> listFilesWithModificationTimes(String directory)
            throws IOException
    {
        return files.listFilesWithModificationTimes(directory);
    }

    @Override
    public void close()
    {
        List<Exception> failures = new ArrayList<>();
        for (SchemeFileSystem fileSystem : opened.values()) {
            try {
                fileSystem.release().close();
            }
            catch (Exception e) {
                failures.add(e);
            }
        }
        opened.clear();
        if (!failures.isEmpty()) {
            IllegalStateException failure = new IllegalStateException("releasing the lake's file system clients failed: " + failures.getFirst());
            failures.forEach(failure::addSuppressed);
            throw failure;
        }
    }

    private Location location(String path)
    {
        return AzureEnvironment.isShortForm(path) ? azure.location(path) : LakeLocations.location(path);
    }

    private TrinoFileSystemFactory factory(Location location)
    {
        String scheme = location.scheme().orElseThrow(() -> new UnsupportedFeatureException("the lake file " + location + " has no URI scheme; "
                + "supported are " + SCHEMES));
        String family = switch (scheme) {
            case "local" -> "local";
            case "s3", "s3a", "s3n" -> "s3";
            case "gs" -> "gs";
            case "abfs", "abfss", "wasb", "wasbs" -> "azure";
            default -> throw new UnsupportedFeatureException("the lake file " + location + " is on a scheme moraine does not read or write ("
                    + scheme + "://); supported are " + SCHEMES);
        };
        return opened.computeIfAbsent(family, this::open).factory();
    }

    private SchemeFileSystem open(String family)
    {
        return switch (family) {
            case "local" -> new SchemeFileSystem(new LocalFileSystemFactory(Path.of("/")), () -> {});
            case "s3" -> S3Environment.fileSystem(environment);
            case "gs" -> GcsEnvironment.fileSystem(environment);
            case "azure" -> azure.fileSystem();
            default -> throw new IllegalArgumentException("no file system for " + family);
        };
    }
}
