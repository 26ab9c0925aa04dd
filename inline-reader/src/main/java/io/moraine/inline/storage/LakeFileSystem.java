package io.moraine.inline.storage;

import io.moraine.core.error.UnsupportedFeatureException;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Writes and reads the lake's data and delete files by their resolved DuckLake path: local paths and {@code file://}
 * URIs on the local file system, {@code s3://bucket/key} through the AWS SDK. The S3 client is made on first use.
 */
public final class LakeFileSystem
        implements AutoCloseable
{
    private final Supplier<S3Client> s3Factory;
    private S3Client s3;

    public LakeFileSystem(Supplier<S3Client> s3Factory)
    {
        this.s3Factory = s3Factory;
    }

    /** S3 configured from the environment variables the catalog store reads ({@link S3Settings}). */
    public static LakeFileSystem fromEnvironment()
    {
        return new LakeFileSystem(() -> S3Settings.fromEnvironment(System.getenv()).newClient());
    }

    /** The path of {@code name} in {@code directory}, in the form of {@link #canonical(String)}. */
    public static String resolve(String directory, String name)
    {
        if (S3Location.isS3(directory)) {
            return directory.endsWith("/") ? directory + name : directory + "/" + name;
        }
        return local(directory).resolve(name).toString();
    }

    /** A resolved DuckLake path as files name it (a delete file's {@code file_path}): local paths without {@code file://}. */
    public static String canonical(String path)
    {
        return S3Location.isS3(path) ? path : local(path).toString();
    }

    /** A new file for parquet-java to write; it exists at {@code path} once the writer has closed. */
    public OutputFile create(String path)
            throws IOException
    {
        if (S3Location.isS3(path)) {
            return new S3OutputFile(s3(), S3Location.parse(path));
        }
        Path file = local(path);
        Files.createDirectories(file.toAbsolutePath().getParent());
        return new LocalOutputFile(file);
    }

    /** The file at {@code path} for reading; {@code sizeBytes} is the catalog's size when known. */
    public InputFile open(String path, OptionalLong sizeBytes)
    {
        if (S3Location.isS3(path)) {
            return new S3InputFile(s3(), S3Location.parse(path), sizeBytes);
        }
        return new LocalInputFile(local(path));
    }

    @Override
    public synchronized void close()
    {
        if (s3 != null) {
            s3.close();
            s3 = null;
        }
    }

    private synchronized S3Client s3()
    {
        if (s3 == null) {
            s3 = s3Factory.get();
        }
        return s3;
    }

    private static Path local(String path)
    {
        if (path.contains("://") && !path.startsWith("file://")) {
            throw new UnsupportedFeatureException("data at " + path + " is on an object store moraine does not write or read yet; "
                    + "supported are local paths, file:// and s3://");
        }
        return io.moraine.core.io.LocalFileSystem.localPath(path);
    }
}
