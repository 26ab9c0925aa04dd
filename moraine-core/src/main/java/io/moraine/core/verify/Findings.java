package io.moraine.core.verify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The problems and counts the checks of one verification add to, in the order they find them. */
final class Findings
{
    private final List<VerifyProblem> problems = new ArrayList<>();
    private final Map<String, Long> checked = new LinkedHashMap<>();

    void problem(VerifyProblem.Check check, String where, String detail)
    {
        problems.add(new VerifyProblem(check, where, detail));
    }

    void checked(String what)
    {
        checked(what, 1);
    }

    void checked(String what, long count)
    {
        checked.merge(what, count, Long::sum);
    }

    /** Makes {@code what} appear in the summary even when nothing of it was there to check. */
    void expect(String what)
    {
        checked.putIfAbsent(what, 0L);
    }

    VerifyReport report()
    {
        return new VerifyReport(problems, checked);
    }
}
