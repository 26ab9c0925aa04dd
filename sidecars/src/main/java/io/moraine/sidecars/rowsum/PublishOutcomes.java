package io.moraine.sidecars.rowsum;

/**
 * What a publish pass did, file by file: {@code published} sidecars written, {@code alreadyPublished} (one header read
 * each), {@code dense} files the catalog proves are {@code row_id_start + position} (nothing read or written),
 * {@code failed} after every retry, and whether the pass was {@code cancelled} before it finished.
 */
public record PublishOutcomes(long published, long alreadyPublished, long dense, long failed, long retries, long bytesWritten, boolean cancelled)
{
    public long files()
    {
        return published + alreadyPublished + dense + failed;
    }
}
