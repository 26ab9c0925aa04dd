package io.moraine.cli.cat;

/** A DuckDB INTERVAL as it is stored: months, days and microseconds, each with its own sign. */
public record IntervalValue(int months, int days, long micros) {}
