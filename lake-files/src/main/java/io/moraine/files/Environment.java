package io.moraine.files;

import java.util.Map;
import java.util.Optional;

/** The environment variables a process was started with, read as settings: blank values count as unset. */
record Environment(Map<String, String> variables)
{
    Environment
    {
        variables = Map.copyOf(variables);
    }

    /** The first of {@code names} that is set, stripped. */
    Optional<String> first(String... names)
    {
        for (String name : names) {
            String value = variables.get(name);
            if (value != null && !value.isBlank()) {
                return Optional.of(value.strip());
            }
        }
        return Optional.empty();
    }

    boolean isTrue(String name)
    {
        return first(name).map(Boolean::parseBoolean).orElse(false);
    }
}
