package io.moraine.core.tx;

import io.moraine.core.row.SnapshotChanges.Change;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * DuckLake's conflict rules between a transaction and the commits that landed after the snapshot it read
 * ({@code CheckForConflicts}): concurrent appends to one table land, as do an insert and a flush; a delete conflicts
 * with anything else that changed the table's files; structure changes conflict with any change to the same object.
 * Returns why this transaction conflicts, or empty when it can be committed on the newer head. Both the write API
 * ({@code io.moraine.core.write.WriteTransaction}) and the rebase of DuckLake's own commits ({@link DataOnlyRebase}) decide by it.
 */
public final class ChangeConflicts
{
    private static final Set<String> DATA_INSERTS = Set.of("inserted_into_table", "inlined_insert");

    private ChangeConflicts() {}

    /**
     * @param mine this transaction's entries
     * @param theirs the entries of one commit that landed since, with its snapshot id
     * @param schemaNameById a schema's name by id (for drops of a schema this transaction creates in)
     */
    public static Optional<String> check(List<Change> mine, long theirSnapshot, List<Change> theirs, LongFunction<Optional<String>> schemaNameById)
    {
        return check(mine, theirSnapshot, theirs, schemaNameById, false);
    }

    /**
     * As {@link #check(List, long, List, LongFunction)}; with {@code filesCheckedByCaller}, two deletes of one table are
     * not a conflict here: the caller checks, as DuckLake does, that no file it deletes from or retires was deleted
     * from or retired since its snapshot (the write API's re-planning does).
     */
    public static Optional<String> check(List<Change> mine, long theirSnapshot, List<Change> theirs, LongFunction<Optional<String>> schemaNameById,
            boolean filesCheckedByCaller)
    {
        for (Change my : mine) {
            for (Change their : theirs) {
                if (filesCheckedByCaller && my.type().equals("deleted_from_table") && their.type().equals("deleted_from_table")) {
                    continue;
                }
                Optional<String> conflict = conflict(my, their, schemaNameById);
                if (conflict.isPresent()) {
                    return Optional.of("this transaction's " + entry(my) + " conflicts with " + entry(their) + " committed in snapshot "
                            + theirSnapshot + " (" + conflict.get() + ")");
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> conflict(Change my, Change their, LongFunction<Optional<String>> schemaNameById)
    {
        String mine = my.type();
        String theirs = switch (their.type()) {
            case "flushed_inlined" -> "inline_flush";
            case "compacted_table" -> "merge_adjacent";
            default -> their.type();
        };
        boolean sameId = my.id().isPresent() && my.id().equals(their.id());
        switch (mine) {
            case "dropped_table", "dropped_view", "dropped_schema" -> {
                if (theirs.equals(mine) && sameId) {
                    return Optional.of("both drop it");
                }
                if (mine.equals("dropped_schema") && (theirs.equals("created_table") || theirs.equals("created_view"))
                        && schemaNameById.apply(my.id().getAsLong()).map(name -> name.equals(names(their).getFirst())).orElse(false)) {
                    return Optional.of("the other created an object in the schema this one drops");
                }
                return Optional.empty();
            }
            case "created_schema" -> {
                return theirs.equals("created_schema") && names(my).equals(names(their)) ? Optional.of("both create it") : Optional.empty();
            }
            case "created_table", "created_view" -> {
                List<String> name = names(my);
                if ((theirs.equals("created_table") || theirs.equals("created_view")) && names(their).equals(name)) {
                    return Optional.of("both create a table or view of that name");
                }
                if (theirs.equals("dropped_schema") && schemaNameById.apply(their.id().getAsLong()).map(schema -> schema.equals(name.getFirst())).orElse(false)) {
                    return Optional.of("the other dropped its schema");
                }
                return Optional.empty();
            }
            default -> {
                if (!sameId) {
                    return Optional.empty();
                }
                Set<String> conflicting = switch (mine) {
                    case "inserted_into_table", "inlined_insert" -> Set.of("dropped_table", "altered_table", "deleted_from_table", "inlined_delete");
                    // DuckLake lets two deletes of one table land when they touch different files: the write API checks
                    // files (filesCheckedByCaller); the rebase of DuckLake's own commits refuses the pair (the loser retries).
                    case "deleted_from_table" -> Set.of("dropped_table", "altered_table", "merge_adjacent", "rewrite_delete", "inserted_into_table",
                            "inlined_insert", "deleted_from_table");
                    case "inlined_delete" -> Set.of("dropped_table", "altered_table", "inlined_delete", "inline_flush", "inserted_into_table",
                            "inlined_insert");
                    case "inline_flush" -> Set.of("dropped_table", "inlined_delete", "inline_flush");
                    case "merge_adjacent", "rewrite_delete" -> Set.of("dropped_table", "deleted_from_table", "merge_adjacent", "rewrite_delete");
                    case "altered_table" -> Set.of("dropped_table", "altered_table");
                    case "altered_view" -> Set.of("altered_view", "dropped_view");
                    default -> Set.of();
                };
                return conflicting.contains(theirs) ? Optional.of(describe(mine) + " against " + describe(theirs) + " of the same table") : Optional.empty();
            }
        }
    }

    private static String describe(String kind)
    {
        return DATA_INSERTS.contains(kind) ? "an insert" : kind.replace('_', ' ');
    }

    private static String entry(Change change)
    {
        return change.type() + ":" + change.value();
    }

    /** The names of a creation entry's value {@code "s"."t"}: ["s", "t"]. */
    static List<String> names(Change change)
    {
        List<String> names = new ArrayList<>();
        String value = change.value();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                if (quoted && i + 1 < value.length() && value.charAt(i + 1) == '"') {
                    current.append('"');
                    i++;
                }
                else {
                    quoted = !quoted;
                }
            }
            else if (c == '.' && !quoted) {
                names.add(current.toString());
                current.setLength(0);
            }
            else {
                current.append(c);
            }
        }
        names.add(current.toString());
        return names;
    }
}
