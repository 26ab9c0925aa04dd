package io.moraine.core.changes;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * DuckLake's {@code table_changes} rule (reference §6.3), a pure function so that an engine can apply it wherever its
 * rows meet (after a shuffle by {@link ChangeKey}, say): an insertion whose key also has deletions is an
 * {@code update_postimage}, a deletion whose key also has insertions an {@code update_preimage}; the rest stay
 * {@code insert} and {@code delete}. DuckLake joins the two sides, so a row matched by n rows of the other side comes
 * out n times.
 */
public final class ChangePairing
{
    private ChangePairing() {}

    /** The change types one row of {@code kind} becomes, given how many rows of the other side share its key. */
    public static List<ChangeType> changeTypes(ChangeKind kind, long matchesOnOtherSide)
    {
        if (matchesOnOtherSide < 0) {
            throw new IllegalArgumentException("a count of matching rows cannot be negative, was " + matchesOnOtherSide);
        }
        if (matchesOnOtherSide == 0) {
            return List.of(kind == ChangeKind.INSERTION ? ChangeType.INSERT : ChangeType.DELETE);
        }
        ChangeType update = kind == ChangeKind.INSERTION ? ChangeType.UPDATE_POSTIMAGE : ChangeType.UPDATE_PREIMAGE;
        return Collections.nCopies(Math.toIntExact(matchesOnOtherSide), update);
    }

    /** {@link #changeTypes(ChangeKind, long)} with the other side's rows counted by key. */
    public static List<ChangeType> changeTypes(ChangeKind kind, ChangeKey key, Map<ChangeKey, Long> otherSideCounts)
    {
        return changeTypes(kind, otherSideCounts.getOrDefault(key, 0L));
    }
}
