package io.moraine.cli.cat;

/** Receives the rows of a table read, one array of {@link CellValues} a row, in the scan's read-schema order. */
@FunctionalInterface
public interface RowSink
{
    void accept(Object[] row);
}
