package io.moraine.core.keyspace;

import io.moraine.core.row.TableKind;

import java.util.Locale;

/**
 * Names the kind of record a store key addresses, for tracing and tests: {@code current/ducklake_data_file},
 * {@code history/ducklake_column}, {@code inline/insert}, {@code system}, {@code snapshot_time}, {@code file_changes}. The layout is docs/format.md's.
 */
public final class KeyNames
{
    private static final String[] INLINE_KINDS = {"?", "schema", "insert", "row_tombstone", "file_delete", "file_delete_table", "schema_dropped",
            "chunk_locator"};

    private KeyNames() {}

    public static String describe(byte[] key)
    {
        if (key.length == 0) {
            return "start";
        }
        Subspace subspace = subspaceOf(key[0]);
        if (subspace == null) {
            return "end";
        }
        String name = subspace.name().toLowerCase(Locale.ROOT);
        if (subspace == Subspace.SYSTEM || subspace == Subspace.SNAPSHOT_TIME || subspace == Subspace.FILE_CHANGES || subspace == Subspace.TINY_FILES || key.length < 2) {
            return name;
        }
        if (subspace == Subspace.INLINE) {
            int kind = key[1];
            return name + "/" + (kind > 0 && kind < INLINE_KINDS.length ? INLINE_KINDS[kind] : "kind-" + kind);
        }
        return name + "/" + TableKind.fromTag(key[1]).map(TableKind::tableName).orElse("kind-" + (key[1] & 0xFF));
    }

    private static Subspace subspaceOf(byte tag)
    {
        for (Subspace subspace : Subspace.values()) {
            if (subspace.tag() == tag) {
                return subspace;
            }
        }
        return null;
    }

    static {
        // The names above follow InlineKeys' tags; fail fast if they drift apart.
        if (!INLINE_KINDS[InlineKeys.CHUNK_LOCATOR].equals("chunk_locator") || !INLINE_KINDS[InlineKeys.INSERT].equals("insert")) {
            throw new AssertionError("KeyNames.INLINE_KINDS is out of step with InlineKeys");
        }
    }
}
