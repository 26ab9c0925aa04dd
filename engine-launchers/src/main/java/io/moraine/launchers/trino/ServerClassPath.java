package io.moraine.launchers.trino;

import io.moraine.launchers.spark.SparkSubmit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class path of the Trino server's JVM: the engine-launchers module's run-time class path (Trino's server and its
 * libraries) without any of moraine's own modules, plus this module's classes for {@link TrinoServerMain}. So the
 * server finds the plugin only in its plugin directory, through Trino's plugin class loader.
 */
final class ServerClassPath
{
    private ServerClassPath() {}

    static String build()
    {
        Path root = SparkSubmit.checkoutRoot();
        Path launchers = root.resolve("engine-launchers/target");
        Path listing = launchers.resolve("classpath.txt");
        if (!Files.isRegularFile(listing)) {
            throw new IllegalStateException(listing + " is missing: build the engine-launchers module first ('make build')");
        }
        String text;
        try {
            text = Files.readString(listing).trim();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> entries = new ArrayList<>();
        entries.add(launchers.resolve("classes").toString());
        for (String entry : text.split(java.io.File.pathSeparator)) {
            if (!entry.isEmpty() && !isMoraineModule(root, Path.of(entry))) {
                entries.add(entry);
            }
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    /** A module of this checkout (its classes or jar in the reactor) or one Maven installed (io/moraine/ in a repository). */
    private static boolean isMoraineModule(Path root, Path entry)
    {
        return entry.toAbsolutePath().startsWith(root) || entry.toString().replace('\\', '/').contains("/io/moraine/");
    }
}
