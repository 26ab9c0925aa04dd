package io.moraine.core.write.maintenance;

import java.time.Instant;

/**
 * A snapshot that {@link LakeMaintenance#expireSnapshots} expired (or, on a dry run, would expire): the columns
 * {@code ducklake_expire_snapshots} returns, {@code changes} as the raw {@code changes_made} text.
 */
public record ExpiredSnapshot(long snapshotId, Instant time, long schemaVersion, String changesMade, String author, String commitMessage,
        String commitExtraInfo) {}
