package io.moraine.cli;

import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreTimeouts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code --name value} options and positional arguments of one command, checked against the names it accepts. An
 * option given without a value is a flag: reading it as a valued option ({@link #option}) is a usage error.
 */
public final class CommandLine
{
    private final Map<String, String> options = new LinkedHashMap<>();
    private final Set<String> withoutValue = new HashSet<>();
    private final List<String> positional = new ArrayList<>();

    private CommandLine() {}

    public static CommandLine parse(String[] args, Set<String> accepted)
    {
        CommandLine line = new CommandLine();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("--")) {
                String name = arg.substring(2);
                String value;
                int equals = name.indexOf('=');
                if (equals >= 0) {
                    value = name.substring(equals + 1);
                    name = name.substring(0, equals);
                }
                else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                    value = args[++i];
                }
                else {
                    value = "true";
                    line.withoutValue.add(name);
                }
                if (!accepted.contains(name)) {
                    throw new IllegalArgumentException("unknown option --" + name + "; this command takes "
                            + accepted.stream().sorted().map(o -> "--" + o).toList());
                }
                line.options.put(name, value);
            }
            else {
                line.positional.add(arg);
            }
        }
        return line;
    }

    public Optional<String> option(String name)
    {
        if (withoutValue.contains(name)) {
            throw new IllegalArgumentException("--" + name + " needs a value (--" + name + " <value>)");
        }
        return Optional.ofNullable(options.get(name));
    }

    public String required(String name)
    {
        return option(name).orElseThrow(() -> new IllegalArgumentException("missing required option --" + name));
    }

    public int intOption(String name, int defaultValue)
    {
        Optional<String> given = option(name);
        if (given.isEmpty()) {
            return defaultValue;
        }
        String value = given.get();
        try {
            return Integer.parseInt(value);
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " takes a whole number, not '" + value + "'");
        }
    }

    /** The name of the option every command that opens a store takes: {@link #storeOptions()}. */
    public static final String STORE_TIMEOUT = "store-timeout";

    /**
     * The store options of {@code --store-timeout <duration>} ({@code 30s}, {@code 500ms}, {@code 2m}, or whole
     * seconds); without it the store's default ({@link StoreOptions#DEFAULT_TIMEOUT}).
     */
    public StoreOptions storeOptions()
    {
        return option(STORE_TIMEOUT).map(text -> StoreOptions.DEFAULTS.withTimeout(duration(STORE_TIMEOUT, text))).orElse(StoreOptions.DEFAULTS);
    }

    static Duration duration(String name, String text)
    {
        return StoreTimeouts.parse("--" + name, text);
    }

    public boolean flag(String name)
    {
        return Boolean.parseBoolean(options.getOrDefault(name, "false"));
    }

    public List<String> positional()
    {
        return List.copyOf(positional);
    }
}
