package io.moraine.trino;

import io.moraine.testing.DuckLakeChangeFeed.Function;

/**
 * Change-feed calls as the tests that compare with DuckDB write them. Those select {@code snapshot_id} and
 * {@code rowid} from every function (DuckDB's virtual columns of {@code ducklake_table_insertions} and
 * {@code ducklake_table_deletions}), so the two sides ask for them with {@code virtual_columns => true};
 * {@code table_changes} returns them anyway.
 */
final class ChangeFeedCalls
{
    private ChangeFeedCalls() {}

    /** {@code TABLE(catalog.system.function(arguments))}, with snapshot_id and rowid among its columns. */
    static String withSnapshotAndRowid(String catalog, Function function, String arguments)
    {
        String virtualColumns = function == Function.CHANGES ? "" : ", virtual_columns => true";
        return "TABLE(" + catalog + ".system." + function.functionName() + "(" + arguments + virtualColumns + "))";
    }
}
