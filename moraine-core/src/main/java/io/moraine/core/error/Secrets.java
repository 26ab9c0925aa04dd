package io.moraine.core.error;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Keeps credential values out of messages. The S3 client takes its credentials from the environment, and the
 * errors it raises can quote what the server returned, which for a rejected signature may echo signed headers; every
 * message that leaves the store layer passes through {@link #redact}. Credentials given explicitly (an engine's secret)
 * are {@link #register registered} and masked the same way.
 */
public final class Secrets
{
    private static final List<String> SECRET_VARIABLES = List.of("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN");
    private static final String MASK = "<redacted>";
    private static final Set<String> REGISTERED = ConcurrentHashMap.newKeySet();

    private Secrets() {}

    /** Masks {@code secret} in every message from now on (for the life of the JVM). */
    public static void register(String secret)
    {
        if (secret != null && !secret.isEmpty()) {
            REGISTERED.add(secret);
        }
    }

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
        return Stream.concat(SECRET_VARIABLES.stream().map(System::getenv), REGISTERED.stream())
                .filter(value -> value != null && value.length() >= 8)
                // The longest first, so that a secret containing another is masked whole.
                .sorted(Comparator.comparingInt(String::length).reversed())
                .toList();
    }
}
