package io.moraine.core.verify;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** What {@link StoreVerifier} found: every problem, and how many records of each kind it checked. */
public record VerifyReport(List<VerifyProblem> problems, Map<String, Long> checked)
{
    public VerifyReport
    {
        problems = List.copyOf(problems);
        checked = Collections.unmodifiableMap(new LinkedHashMap<>(checked));
    }

    public boolean isClean()
    {
        return problems.isEmpty();
    }

    /** How many records of {@code what} were checked ("catalog rows", "inline chunks", "files", ...); 0 if none. */
    public long checked(String what)
    {
        return checked.getOrDefault(what, 0L);
    }

    /** One line: the counts checked and the number of problems. */
    public String summary()
    {
        String counts = checked.entrySet().stream().map(entry -> String.format("%,d %s", entry.getValue(), entry.getKey()))
                .collect(Collectors.joining(", "));
        return "checked " + counts + "; " + (problems.isEmpty() ? "no problems" : problems.size() + (problems.size() == 1 ? " problem" : " problems"));
    }
}
