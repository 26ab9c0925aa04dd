package io.moraine.files;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.io.LakeFileSystem;
import io.trino.filesystem.Location;
import io.trino.spi.security.ConnectorIdentity;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The lake's {@code s3://} files alone (also {@code s3a://}, {@code s3n://}), through Trino's native S3 file system
 * configured from the environment exactly as {@link LakeFileSystems} configures it ({@link S3Environment}). For a
 * process that carries no other cloud client — the Spark bundle leaves out the GCS and Azure libraries, which clash
 * with Spark's own. Other schemes are refused with a clear error. Close it to release the client.
 */
public final class S3LakeFiles
        implements LakeFileSystem, AutoCloseable
{
    private final SchemeFileSystem s3;
    private final TrinoLakeFileSystem files;

    private S3LakeFiles(Environment environment)
    {
        this.s3 = S3Environment.fileSystem(environment);
        ConnectorIdentity identity = ConnectorIdentity.forUser("moraine")
                .withExtraCredentials(S3Environment.identityCredentials(environment))
                .build();
        this.files = new TrinoLakeFileSystem(s3.factory().create(identity), S3LakeFiles::location);
    }

    /** The S3 files configured from {@code environment}: a process passes {@code System.getenv()}. */
    public static S3LakeFiles fromEnvironment(Map<String, String> environment)
    {
        return new S3LakeFiles(new Environment(environment));
    }

    private static Location location(String path)
    {
        Location location = LakeLocations.location(path);
        String scheme = location.scheme().orElse("");
        if (!scheme.equals("s3") && !scheme.equals("s3a") && !scheme.equals("s3n")) {
            throw new UnsupportedFeatureException("the lake file " + path + " is not on S3; this reader serves s3:// (s3a://, s3n://) files only");
        }
        return location;
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
            throws Exception
    {
        s3.release().close();
    }
}
