package io.moraine.launchers.trino;

import io.moraine.launchers.spark.SparkSubmit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The deployable plugin directory the build produces ({@code trino-plugin/target/moraine/}: the plugin jar and its
 * run-time jars), which an installation copies to {@code <trino>/plugin/moraine/}. {@code -Dmoraine.trino.plugin-dir}
 * names another one.
 */
public final class PluginDirectory
{
    private PluginDirectory() {}

    public static Path locate()
    {
        String configured = System.getProperty("moraine.trino.plugin-dir");
        Path directory = configured != null ? Path.of(configured) : SparkSubmit.checkoutRoot().resolve("trino-plugin/target/moraine");
        if (!Files.isDirectory(directory) || !containsPluginJar(directory)) {
            throw new IllegalStateException("the moraine Trino plugin directory " + directory + " is missing or holds no trino-plugin-*.jar: "
                    + "build it with 'make build' (Maven's package phase of trino-plugin writes it)");
        }
        return directory.toAbsolutePath();
    }

    private static boolean containsPluginJar(Path directory)
    {
        try (Stream<Path> files = Files.list(directory)) {
            return files.anyMatch(file -> file.getFileName().toString().matches("trino-plugin-.*\\.jar"));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
