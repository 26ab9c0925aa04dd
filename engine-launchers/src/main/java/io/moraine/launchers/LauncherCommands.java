package io.moraine.launchers;

import io.moraine.cli.Command;
import io.moraine.cli.CommandProvider;
import io.moraine.launchers.spark.SparkCommands;
import io.moraine.launchers.trino.DemoCommand;
import io.moraine.launchers.trino.TrinoCommands;

import java.util.Map;

/** {@code bin/moraine trino}, {@code trino-query}, {@code spark-sql} and {@code demo}, which bin/moraine runs with this module's class path. */
public final class LauncherCommands
        implements CommandProvider
{
    @Override
    public Map<String, Command> commands()
    {
        return Map.of("trino", TrinoCommands::serve, "trino-query", TrinoCommands::query, "spark-sql", SparkCommands::query, "demo", DemoCommand::run);
    }
}
