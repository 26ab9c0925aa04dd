package io.moraine.cli;

import java.util.Map;

/**
 * Commands of {@code bin/moraine} whose code needs an engine or a test harness on its class path, which this module
 * keeps off its own. Their module lists its provider in {@code META-INF/services/io.moraine.cli.CommandProvider};
 * {@code bin/moraine} runs {@link Main} with that module's class path for them, and {@link HostedCommands} finds them.
 */
public interface CommandProvider
{
    /** The commands this provider runs, by name. */
    Map<String, Command> commands();
}
