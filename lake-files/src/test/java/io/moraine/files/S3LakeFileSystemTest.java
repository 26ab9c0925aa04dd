package io.moraine.files;

import io.moraine.core.io.LakeFileSystem;
import io.moraine.testing.S3ProxyServer;
import org.apache.parquet.io.PositionOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The lake's files on S3 (S3Proxy) through Trino's native S3 file system, configured as the command line configures
 * it: from the AWS_* environment the build sets for the tests, with S3's smallest part size so that a file of a few
 * megabytes is a multipart upload.
 */
class S3LakeFileSystemTest
        extends LakeFileSystemContract
{
    private static final int PART_SIZE = 5 * 1024 * 1024;
    private static final AtomicInteger DIRECTORIES = new AtomicInteger();

    private static S3ProxyServer s3;
    private static String bucket;
    private static LakeFileSystems files;

    @BeforeAll
    static void start()
            throws Exception
    {
        s3 = S3ProxyServer.shared();
        bucket = s3.createBucket("moraine-lake-files");
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.put("MORAINE_S3_PART_SIZE", "5MB");
        files = LakeFileSystems.fromEnvironment(environment);
    }

    @AfterAll
    static void stop()
    {
        files.close();
    }

    @Override
    LakeFileSystem files()
    {
        return files;
    }

    @Override
    String newDirectory()
    {
        return "s3://" + bucket + "/lake/dir-" + DIRECTORIES.incrementAndGet();
    }

    @Test
    void aFileLargerThanOnePartIsUploadedInPartsAndReadsBackWhole()
            throws Exception
    {
        String directory = newDirectory();
        String path = directory + "/large.parquet";
        byte[] content = bytes(2 * PART_SIZE + 123_457, 21);
        try (PositionOutputStream out = files.newOutputFile(path).create(0)) {
            // In pieces, as parquet-java writes pages.
            for (int offset = 0; offset < content.length; offset += 100_000) {
                out.write(content, offset, Math.min(100_000, content.length - offset));
            }
            assertThat(out.getPos()).isEqualTo(content.length);
        }

        String key = path.substring(("s3://" + bucket + "/").length());
        assertThat(s3.objects(bucket, key)).containsExactly(Map.entry(key, (long) content.length));
        assertThat(eTag(key)).as("a multipart upload's ETag ends in its part count").endsWith("-3\"");
        Path downloaded = s3.download(bucket, key, Files.createTempDirectory("moraine-s3-large").resolve("large.parquet"));
        assertThat(Files.readAllBytes(downloaded)).as("the object S3 assembled from the parts").isEqualTo(content);
        assertThat(read(path)).isEqualTo(content);
    }

    private static String eTag(String key)
    {
        try (S3Client client = S3Client.builder()
                .endpointOverride(s3.endpoint())
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)))
                .build()) {
            return client.headObject(request -> request.bucket(bucket).key(key)).eTag();
        }
    }

    @Test
    void writingToAMissingBucketFailsNamingTheFile()
    {
        String path = "s3://moraine-no-such-bucket/lake/f.parquet";
        assertThatThrownBy(() -> write(path, bytes(100, 22)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(path + " failed: ")
                .hasMessageContaining("check that its bucket or directory exists");
    }
}
