package io.moraine.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.logging.LogManager;

/**
 * Configures java.util.logging, which every library's logging reaches through the one SLF4J provider on the class
 * path (slf4j-jdk14): warnings and errors print, INFO does not ({@code logging.properties}). A user's own
 * {@code -Djava.util.logging.config.file} wins.
 */
final class QuietLogging
{
    private QuietLogging() {}

    static void install()
    {
        if (System.getProperty("java.util.logging.config.file") != null || System.getProperty("java.util.logging.config.class") != null) {
            return;
        }
        try (InputStream configuration = QuietLogging.class.getResourceAsStream("logging.properties")) {
            LogManager.getLogManager().readConfiguration(configuration);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
