package io.moraine.examples.trino;

import io.moraine.examples.spark.SparkSubmit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class path of the Trino server's JVM: the examples module's run-time class path (Trino's server and its
 * libraries) without any of moraine's own modules, plus the examples' classes for {@link TrinoServerMain}. So the
 * server finds the plugin only in its plugin directory, through Trino's plugin class loader.
 */
final class ServerClassPath
{
    private ServerClassPath() {}

    static String build()
    {
        Path root = SparkSubmit.checkoutRoot();
        Path examples = root.resolve("examples/target");
        Path listing = examples.resolve("classpath.txt");
        if (!Files.isRegularFile(listing)) {
            throw new IllegalStateException(listing + " is missing: build the examples module first ('make build')");
        }
        String text;
        try {
            text = Files.readString(listing).trim();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> entries = new ArrayList<>();
        entries.add(examples.resolve("classes").toString());
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
