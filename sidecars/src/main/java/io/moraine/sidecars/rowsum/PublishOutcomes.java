package io.moraine.sidecars.rowsum;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a publish pass did, file by file: {@code published} sidecars written, {@code alreadyPublished} (one header read
 * each), {@code dense} files the catalog proves are {@code row_id_start + position} (skipped: nothing read or written),
 * {@code failed} after every retry — with {@code failedByReason} saying why ({@link PublishFailure}) — and whether the
 * pass was {@code cancelled} before it finished.
 */
public record PublishOutcomes(long published, long alreadyPublished, long dense, long failed, long retries, long bytesWritten, boolean cancelled,
        Map<String, Long> failedByReason)
{
    public PublishOutcomes
    {
        failedByReason = java.util.Collections.unmodifiableMap(new TreeMap<>(failedByReason));
    }

    public long files()
    {
        return published + alreadyPublished + dense + failed;
    }
}
