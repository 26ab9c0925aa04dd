package io.moraine.files;

import io.moraine.core.io.LakeFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The lake's files on Google Cloud Storage ({@code gs://}) through Trino's native GCS file system, against
 * fake-gcs-server (a GCS emulator the bootstrap installs), configured from the environment as the command line is.
 */
class GcsLakeFileSystemTest
        extends LakeFileSystemContract
{
    private static final String BUCKET = "moraine-lake";
    private static final AtomicInteger DIRECTORIES = new AtomicInteger();

    private static FakeGcsServer gcs;
    private static LakeFileSystems files;

    @BeforeAll
    static void start()
            throws Exception
    {
        gcs = FakeGcsServer.start(BUCKET);
        files = LakeFileSystems.fromEnvironment(Map.of("STORAGE_EMULATOR_HOST", gcs.endpoint(), "GOOGLE_CLOUD_PROJECT", "moraine-test"));
    }

    @AfterAll
    static void stop()
    {
        if (files != null) {
            files.close();
        }
        if (gcs != null) {
            gcs.close();
        }
    }

    @Override
    LakeFileSystem files()
    {
        return files;
    }

    @Override
    String newDirectory()
    {
        return "gs://" + BUCKET + "/lake/dir-" + DIRECTORIES.incrementAndGet();
    }
}
