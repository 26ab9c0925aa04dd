package io.moraine.testing;

import com.google.common.collect.HashMultiset;
import com.google.common.collect.Multiset;
import com.google.common.collect.Multisets;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Asserts that an engine read the same rows as DuckDB, as multisets of canonical rows (order never matters). A
 * failure names the rows only one side has and, for rows of the same first value (the table's key, usually), the
 * columns that differ with both values.
 */
public final class CanonicalRowsAssert
{
    private static final int SHOWN = 10;

    private CanonicalRowsAssert() {}

    public static void assertSameRows(String what, List<LakeColumn> columns, List<List<String>> duckdb, String engine, List<List<String>> read)
    {
        Multiset<List<String>> expected = HashMultiset.create(duckdb);
        Multiset<List<String>> actual = HashMultiset.create(read);
        if (expected.equals(actual)) {
            return;
        }
        List<List<String>> onlyDuckDb = sorted(Multisets.difference(expected, actual));
        List<List<String>> onlyEngine = sorted(Multisets.difference(actual, expected));
        StringBuilder message = new StringBuilder()
                .append(what).append(": ").append(engine).append(" read ").append(read.size()).append(" rows, DuckDB ").append(duckdb.size())
                .append("; ").append(onlyDuckDb.size()).append(" rows only DuckDB has, ").append(onlyEngine.size()).append(" only ").append(engine)
                .append(" has");
        for (List<String> row : onlyDuckDb.subList(0, Math.min(SHOWN, onlyDuckDb.size()))) {
            Optional<List<String>> counterpart = onlyEngine.stream().filter(other -> other.getFirst().equals(row.getFirst())).findFirst();
            if (counterpart.isPresent()) {
                message.append("\n  row ").append(columns.getFirst().name()).append('=').append(row.getFirst()).append(" differs:");
                for (int i = 0; i < columns.size(); i++) {
                    if (!row.get(i).equals(counterpart.get().get(i))) {
                        message.append("\n    ").append(columns.get(i).name()).append(" (").append(columns.get(i).duckdbType()).append("): DuckDB ")
                                .append(row.get(i)).append(", ").append(engine).append(' ').append(counterpart.get().get(i));
                    }
                }
            }
            else {
                message.append("\n  only DuckDB: ").append(render(columns, row));
            }
        }
        for (List<String> row : onlyEngine.subList(0, Math.min(SHOWN, onlyEngine.size()))) {
            if (onlyDuckDb.stream().noneMatch(other -> other.getFirst().equals(row.getFirst()))) {
                message.append("\n  only ").append(engine).append(": ").append(render(columns, row));
            }
        }
        throw new AssertionError(message.toString());
    }

    private static List<List<String>> sorted(Multiset<List<String>> rows)
    {
        List<List<String>> list = new ArrayList<>(rows);
        list.sort((left, right) -> String.join("|", left).compareTo(String.join("|", right)));
        return list;
    }

    private static String render(List<LakeColumn> columns, List<String> row)
    {
        List<String> cells = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            cells.add(columns.get(i).name() + "=" + row.get(i));
        }
        return String.join(", ", cells);
    }
}
