package io.moraine.sidecars.rowsum;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;

/** Why a file's sidecar could not be published, as a short reason that counts group by. */
final class PublishFailure
{
    static final String DATA_FILE_MISSING = "data file missing";
    static final String IO_ERROR = "I/O error";
    static final String INVALID_DATA_FILE = "row ids unreadable";

    private PublishFailure() {}

    static String reason(Throwable failure)
    {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof FileNotFoundException || cause instanceof NoSuchFileException) {
                return DATA_FILE_MISSING;
            }
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException || cause instanceof UncheckedIOException || cause instanceof io.moraine.core.error.StoreException) {
                return IO_ERROR;
            }
        }
        return INVALID_DATA_FILE + " (" + failure.getClass().getSimpleName() + ")";
    }
}
