package io.moraine.core.error;

import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Keeps credential values out of messages. The S3 client takes its credentials from the environment, and the
 * errors it raises can quote what the server returned, which for a rejected signature may echo signed headers; every
 * message that leaves the store layer passes through {@link #redact}.
 */
public final class Secrets
{
    private static final List<String> SECRET_VARIABLES = List.of("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN");
    private static final String MASK = "<redacted>";

    private Secrets() {}

    public static String redact(String text)
    {
        if (text == null) {
            return null;
        }
        String result = text;
        for (String secret : values()) {
            result = result.replace(secret, MASK);
        }
        return result;
    }

    /**
     * {@code failure} itself when its messages hold no secret; otherwise a stand-in with the redacted message and the
     * same stack trace, so that a logged cause chain cannot carry the secret either.
     */
    public static Throwable scrub(Throwable failure)
    {
        boolean leaks = Stream.iterate(failure, Objects::nonNull, Throwable::getCause)
                .limit(16)
                .anyMatch(cause -> !Objects.equals(cause.getMessage(), redact(cause.getMessage())) || !Objects.equals(cause.toString(), redact(cause.toString())));
        if (!leaks) {
            return failure;
        }
        RuntimeException standIn = new RuntimeException(failure.getClass().getName() + ": " + redact(failure.getMessage()));
        standIn.setStackTrace(failure.getStackTrace());
        return standIn;
    }

    private static List<String> values()
    {
        // Short values would mask ordinary words; real credentials are long.
        return SECRET_VARIABLES.stream()
                .map(System::getenv)
                .filter(value -> value != null && value.length() >= 8)
                .toList();
    }
}
