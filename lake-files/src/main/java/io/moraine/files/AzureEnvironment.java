package io.moraine.files;

import io.moraine.core.error.InvalidArgumentException;
import io.opentelemetry.api.OpenTelemetry;
import io.trino.filesystem.Location;
import io.trino.filesystem.azure.AzureAuth;
import io.trino.filesystem.azure.AzureAuthAccessKey;
import io.trino.filesystem.azure.AzureAuthDefault;
import io.trino.filesystem.azure.AzureAuthManagedIdentityConfig;
import io.trino.filesystem.azure.AzureFileSystemConfig;
import io.trino.filesystem.azure.AzureFileSystemFactory;

import java.util.Optional;

/**
 * Trino's native Azure Storage file system configured from the environment variables the catalog store's Azure client
 * reads: {@code AZURE_STORAGE_ACCOUNT_NAME} and {@code AZURE_STORAGE_ACCOUNT_KEY} (or {@code AZURE_STORAGE_ACCESS_KEY});
 * without a key, Azure's default credential chain ({@code AZURE_CLIENT_ID}, {@code AZURE_TENANT_ID},
 * {@code AZURE_CLIENT_SECRET}, managed identity). Trino names Azure files
 * {@code abfs[s]://<container>@<account>.dfs.core.windows.net/<path>}; DuckDB's short form
 * {@code az://<container>/<path>} (or {@code azure://}) is mapped to that with the account from the environment.
 */
final class AzureEnvironment
{
    private final Environment environment;

    AzureEnvironment(Environment environment)
    {
        this.environment = environment;
    }

    static boolean isShortForm(String path)
    {
        return path.startsWith("az://") || path.startsWith("azure://");
    }

    /** The Trino location of an {@code az://<container>/<path>} path. */
    Location location(String path)
    {
        String rest = path.substring(path.indexOf("://") + 3);
        int slash = rest.indexOf('/');
        String container = slash < 0 ? rest : rest.substring(0, slash);
        String file = slash < 0 ? "" : rest.substring(slash);
        if (container.isEmpty() || container.contains(".")) {
            throw new InvalidArgumentException("'" + path + "' does not name an Azure container; use az://<container>/<path>, or "
                    + "abfss://<container>@<account>.dfs.core.windows.net/<path>");
        }
        String account = environment.first("AZURE_STORAGE_ACCOUNT_NAME").orElseThrow(() -> new InvalidArgumentException(
                "the lake file " + path + " names no Azure storage account; set AZURE_STORAGE_ACCOUNT_NAME, or use "
                        + "abfss://<container>@<account>.dfs.core.windows.net/<path>"));
        return Location.of("abfss://" + container + "@" + account + ".dfs.core.windows.net" + file);
    }

    SchemeFileSystem fileSystem()
    {
        AzureFileSystemFactory factory = new AzureFileSystemFactory(OpenTelemetry.noop(), auth(), new AzureFileSystemConfig());
        return new SchemeFileSystem(factory, factory::destroy);
    }

    private AzureAuth auth()
    {
        Optional<String> key = environment.first("AZURE_STORAGE_ACCOUNT_KEY", "AZURE_STORAGE_ACCESS_KEY");
        if (key.isPresent()) {
            return new AzureAuthAccessKey(key.get());
        }
        return new AzureAuthDefault(new AzureAuthManagedIdentityConfig());
    }
}
