package io.moraine.files;

import com.google.cloud.NoCredentials;
import io.moraine.core.error.InvalidArgumentException;
import io.trino.filesystem.gcs.ApplicationDefaultAuth;
import io.trino.filesystem.gcs.GcsAuth;
import io.trino.filesystem.gcs.GcsFileSystemConfig;
import io.trino.filesystem.gcs.GcsFileSystemFactory;
import io.trino.filesystem.gcs.GcsServiceAccountAuth;
import io.trino.filesystem.gcs.GcsServiceAccountAuthConfig;
import io.trino.filesystem.gcs.GcsStorageFactory;

import java.io.IOException;
import java.util.Optional;

/**
 * Trino's native Google Cloud Storage file system ({@code gs://}) configured from Google's standard environment
 * variables: {@code GOOGLE_APPLICATION_CREDENTIALS} (a service account's JSON key file; without it, the application
 * default credentials), {@code GOOGLE_CLOUD_PROJECT}, and {@code STORAGE_EMULATOR_HOST} (an emulator's URL, used
 * without credentials).
 */
final class GcsEnvironment
{
    private GcsEnvironment() {}

    static SchemeFileSystem fileSystem(Environment environment)
    {
        GcsFileSystemConfig config = new GcsFileSystemConfig();
        environment.first("GOOGLE_CLOUD_PROJECT").ifPresent(config::setProjectId);
        Optional<String> emulator = environment.first("STORAGE_EMULATOR_HOST");
        config.setEndpoint(emulator);
        GcsStorageFactory storage = new GcsStorageFactory(config, auth(environment, emulator.isPresent()));
        GcsFileSystemFactory factory = new GcsFileSystemFactory(config, storage);
        return new SchemeFileSystem(factory, () -> {
            factory.stop();
            storage.stop();
        });
    }

    private static GcsAuth auth(Environment environment, boolean emulator)
    {
        if (emulator) {
            return (options, identity) -> options.setCredentials(NoCredentials.getInstance());
        }
        Optional<String> keyFile = environment.first("GOOGLE_APPLICATION_CREDENTIALS");
        if (keyFile.isEmpty()) {
            return new ApplicationDefaultAuth();
        }
        try {
            return new GcsServiceAccountAuth(new GcsServiceAccountAuthConfig().setJsonKeyFilePath(keyFile.get()));
        }
        catch (IOException e) {
            throw new InvalidArgumentException("GOOGLE_APPLICATION_CREDENTIALS names " + keyFile.get() + ", which is not a readable service "
                    + "account key file: " + e.getMessage() + "; point it to the JSON key of a service account", e);
        }
    }
}
