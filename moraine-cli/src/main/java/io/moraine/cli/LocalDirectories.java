package io.moraine.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Local working directories of the commands (demo, benchmarks, launchers). */
public final class LocalDirectories
{
    private LocalDirectories() {}

    /** Deletes {@code directory} and everything below it; nothing when it does not exist. */
    public static void deleteRecursively(Path directory)
            throws IOException
    {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
