package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LakeFileSystem;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reclaims sidecars whose data file is gone: one listing of the data path, and every {@code .rowsum} whose data file
 * that same listing did not find is deleted. Deciding from the listing, not the catalog, keeps the summary of a file
 * an older snapshot still reads. Run it after DuckLake's own cleanup, which is what strands them.
 */
public final class RowSummarySweep
{
    public record Result(long filesListed, long sidecars, long deleted) {}

    private RowSummarySweep() {}

    public static Result sweep(LakeFileSystem files, String dataPath)
            throws IOException
    {
        List<String> listed = files.listFiles(dataPath);
        Set<String> present = new HashSet<>(listed);
        long sidecars = 0;
        long deleted = 0;
        for (String path : listed) {
            if (!path.endsWith(DataFileIdentity.SIDECAR_SUFFIX)) {
                continue;
            }
            sidecars++;
            String dataFile = path.substring(0, path.length() - DataFileIdentity.SIDECAR_SUFFIX.length());
            if (!present.contains(dataFile)) {
                files.deleteFile(path);
                deleted++;
            }
        }
        return new Result(listed.size(), sidecars, deleted);
    }
}
