package io.moraine.core.write;

/**
 * What {@code ducklake_snapshot_changes} records about who committed and why, as DuckLake's
 * {@code ducklake_set_commit_message} sets it; any part may be null.
 */
public record CommitInfo(String author, String message, String extraInfo)
{
    public static final CommitInfo NONE = new CommitInfo(null, null, null);
}
