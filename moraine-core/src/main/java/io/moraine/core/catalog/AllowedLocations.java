package io.moraine.core.catalog;

import io.moraine.core.error.FileOutsideAllowedLocationsException;
import io.moraine.core.error.InvalidArgumentException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where a catalog's data and delete files may live (docs/status.md, "Where files may live"), as an engine's setting
 * gives it: DuckDB's {@code ALLOWED_LOCATIONS} attach option, Trino's {@code moraine.allowed-locations}, Spark's
 * {@code allowed-locations}. The lake's data path (as resolved, a data-path override included) is always allowed.
 * <ul>
 * <li>Unset (the default): files are allowed under the data path and as the catalog registered them: a file whose own
 * path is absolute is read where it says, and a relative path stays under the innermost absolute path it resolves
 * against (its table's, its schema's or the data path). A relative path whose {@code ..} leaves that root is refused.
 * New registrations follow the same rule, as DuckLake does: a file registered with its own absolute path (DuckLake's
 * {@code add_files} of a file elsewhere) becomes one of the registered files; a relative one must stay under its root.</li>
 * <li>Set: every file read, registered or scheduled for deletion must lie under the data path or one of the listed
 * locations, absolute paths included.</li>
 * </ul>
 * Paths are compared in {@link LakePath} normal form, on whole path segments.
 */
public final class AllowedLocations
{
    private final Optional<List<String>> locations;
    private final String setting;

    private AllowedLocations(Optional<List<String>> locations, String setting)
    {
        this.locations = locations;
        this.setting = requireNonNull(setting, "setting is null");
    }

    /** The default: the data path and the files already registered; {@code setting} names the engine's setting. */
    public static AllowedLocations registered(String setting)
    {
        return new AllowedLocations(Optional.empty(), setting);
    }

    /** Only the data path and {@code locations} (URIs or absolute paths). */
    public static AllowedLocations of(List<String> locations, String setting)
    {
        List<String> normal = new ArrayList<>();
        for (String location : locations) {
            String trimmed = location.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            String normalized = normalizeSetting(trimmed, setting);
            if (!normalized.contains(":") && !normalized.startsWith("/")) {
                throw new InvalidArgumentException(setting + " lists '" + location + "', a relative path: list absolute paths or URIs (file:///..., s3://bucket/prefix/)");
            }
            normal.add(normalized);
        }
        return new AllowedLocations(Optional.of(List.copyOf(normal)), setting);
    }

    /**
     * The setting as an engine passes it: a comma-separated list, or empty/absent for the default. An empty list
     * (the setting given as '') is the default too.
     */
    public static AllowedLocations parse(Optional<String> commaSeparated, String setting)
    {
        if (commaSeparated.isEmpty() || commaSeparated.get().isBlank()) {
            return registered(setting);
        }
        return of(List.of(commaSeparated.get().split(",")), setting);
    }

    private static String normalizeSetting(String location, String setting)
    {
        try {
            return LakePath.normalize(location);
        }
        catch (FileOutsideAllowedLocationsException e) {
            throw new InvalidArgumentException(setting + " lists '" + location + "', which climbs with '..' above its root");
        }
    }

    /** The listed locations in normal form; empty when the setting is not given. */
    public Optional<List<String>> locations()
    {
        return locations;
    }

    public String setting()
    {
        return setting;
    }

    /**
     * Checks the path of a file the catalog holds, for reading or cleaning up. {@code resolved} is its resolved path,
     * {@code root} the innermost absolute path it resolved against (the file's own when it is absolute).
     */
    public void checkRegistered(String resolved, String root, String dataPath, String use)
    {
        String path = normalize(resolved, use);
        if (underDataPath(path, dataPath, use) || (locations.isEmpty() ? root != null && LakePath.isUnder(path, normalize(root, use)) : listed(path))) {
            return;
        }
        throw outside(resolved, dataPath, use);
    }

    /**
     * Checks the path of a file a commit registers. Unset: as {@link #checkRegistered} (an absolute path, {@code root}
     * being the path itself, is allowed). Set: under the data path, the table's or schema's absolute path, or a listed
     * location.
     */
    public void checkNew(String resolved, String root, String dataPath, String use)
    {
        if (locations.isEmpty()) {
            checkRegistered(resolved, root, dataPath, use);
            return;
        }
        String path = normalize(resolved, use);
        if (underDataPath(path, dataPath, use) || (root != null && !root.equals(resolved) && LakePath.isUnder(path, normalize(root, use))) || listed(path)) {
            return;
        }
        throw outside(resolved, dataPath, use);
    }

    /** A catalog without a data_path (none recorded, no override) allows nothing by it. */
    private boolean underDataPath(String path, String dataPath, String use)
    {
        return dataPath != null && LakePath.isUnder(path, normalize(dataPath, use));
    }

    private boolean listed(String path)
    {
        return locations.orElse(List.of()).stream().anyMatch(location -> LakePath.isUnder(path, location));
    }

    private String normalize(String path, String use)
    {
        try {
            return LakePath.normalize(path);
        }
        catch (FileOutsideAllowedLocationsException e) {
            throw new FileOutsideAllowedLocationsException(path, "cannot " + use + " " + path + ": " + e.getMessage());
        }
    }

    private FileOutsideAllowedLocationsException outside(String path, String dataPath, String use)
    {
        String allowed = locations.map(list -> "the data path " + dataPath + (list.isEmpty() ? "" : " and " + String.join(", ", list)))
                .orElse("the data path " + dataPath + " and the files the catalog registered with absolute paths");
        return new FileOutsideAllowedLocationsException(path, "cannot " + use + " " + path + ": it lies outside the allowed locations (" + allowed
                + "); if the lake really keeps files there, add that location to " + setting);
    }
}
