package io.moraine.cli;

/** One command of {@code bin/moraine}: runs with the arguments after the command's name. */
@FunctionalInterface
public interface Command
{
    void run(String[] args)
            throws Exception;
}
