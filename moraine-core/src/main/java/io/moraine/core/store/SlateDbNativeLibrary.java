package io.moraine.core.store;

import io.moraine.core.error.StoreException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Makes SlateDB's native library loadable by its Java binding. The binding loads {@code slatedb_uniffi} with
 * {@link System#loadLibrary}, or from the absolute path in the system property
 * {@value #OVERRIDE_PROPERTY}. Jars of the binding carry the library as a resource at
 * {@code <os>-<arch>/libslatedb_uniffi.so}; this class copies it once to
 * {@code ~/.cache/moraine/native/<sha-256>/} and sets the property. An override set by the user is left alone.
 */
public final class SlateDbNativeLibrary
{
    public static final String OVERRIDE_PROPERTY = "uniffi.component.slatedb.libraryOverride";
    private static final String LIBRARY_FILE = "libslatedb_uniffi.so";

    private static boolean prepared;

    private SlateDbNativeLibrary() {}

    public static synchronized void prepare()
    {
        if (prepared || System.getProperty(OVERRIDE_PROPERTY) != null) {
            prepared = true;
            return;
        }
        String resource = "/" + platform() + "/" + LIBRARY_FILE;
        try (InputStream in = io.slatedb.uniffi.ObjectStore.class.getResourceAsStream(resource)) {
            if (in == null) {
                // No bundled copy: the binding falls back to java.library.path.
                prepared = true;
                return;
            }
            byte[] bytes = in.readAllBytes();
            Path directory = cacheDirectory().resolve("native").resolve(sha256(bytes));
            Path library = directory.resolve(LIBRARY_FILE);
            if (!Files.isRegularFile(library) || Files.size(library) != bytes.length) {
                Files.createDirectories(directory);
                Path temporary = Files.createTempFile(directory, LIBRARY_FILE, ".part");
                Files.write(temporary, bytes);
                Files.move(temporary, library, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            System.setProperty(OVERRIDE_PROPERTY, library.toAbsolutePath().toString());
            prepared = true;
        }
        catch (IOException e) {
            throw new StoreException("cannot extract SlateDB's native library " + resource + " from the slatedb-uniffi jar: "
                    + e.getMessage() + ". Set -D" + OVERRIDE_PROPERTY + "=<absolute path of " + LIBRARY_FILE + "> instead.", e);
        }
    }

    private static Path cacheDirectory()
    {
        String configured = System.getenv("MORAINE_CACHE_DIR");
        return configured != null ? Path.of(configured) : Path.of(System.getProperty("user.home"), ".cache", "moraine");
    }

    private static String platform()
    {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String osPart = os.contains("mac") || os.contains("darwin") ? "darwin" : os.contains("win") ? "win32" : "linux";
        String archPart = switch (arch) {
            case "amd64", "x86_64", "x64" -> "x86-64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
        return osPart + "-" + archPart;
    }

    private static String sha256(byte[] bytes)
    {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)).substring(0, 16);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
