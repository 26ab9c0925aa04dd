package io.moraine.core.tx;

import io.moraine.core.error.InvalidArgumentException;

import java.util.Locale;

/**
 * What a commit that read an older snapshot than the head does (docs/transactions.md, "Rebasing"): {@link #REBASE}
 * re-drives a data-only commit onto the head inside the commit (refusing, as a conflict, what cannot be re-derived);
 * {@link #RETRY} refuses every such commit as a conflict, so that the client (DuckLake) re-runs it from the new head.
 */
public enum CommitPolicy
{
    REBASE,
    RETRY;

    /** {@code rebase} or {@code retry}, in any case; anything else is refused, naming the choices. */
    public static CommitPolicy parse(String text)
    {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "rebase" -> REBASE;
            case "retry" -> RETRY;
            default -> throw new InvalidArgumentException("COMMIT_POLICY is 'rebase' (a data-only commit that lost the race lands on the new head) "
                    + "or 'retry' (it fails and DuckLake re-runs it), not '" + text + "'");
        };
    }
}
