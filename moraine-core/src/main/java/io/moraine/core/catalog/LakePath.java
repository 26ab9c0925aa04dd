package io.moraine.core.catalog;

import io.moraine.core.error.FileOutsideAllowedLocationsException;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A lake path in one spelling, for comparing locations: the URI scheme (lower case) and authority kept, {@code file:}
 * URIs of the local file system written as plain paths, {@code .} segments and empty segments ({@code //}) dropped,
 * {@code ..} applied. A {@code ..} that climbs above the path's root is refused. The normal form is for checks only:
 * files are still read by the path the catalog resolves (an object store key may hold {@code //}).
 */
public final class LakePath
{
    // A scheme of two letters or more, so that a drive letter is never taken for one.
    private static final Pattern SCHEME = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]+):(//[^/]*)?(.*)$", Pattern.DOTALL);

    private LakePath() {}

    /** {@code path} in normal form; a directory keeps its trailing {@code /}. */
    public static String normalize(String path)
    {
        String prefix = "";
        String rest = path;
        Matcher uri = SCHEME.matcher(path);
        if (uri.matches()) {
            String scheme = uri.group(1).toLowerCase(Locale.ROOT);
            String authority = uri.group(2) == null ? "" : uri.group(2);
            rest = uri.group(3);
            // file:/x, file:///x and /x name the same local file.
            prefix = scheme.equals("file") && authority.length() <= 2 ? "" : scheme + ":" + authority;
            if (!prefix.isEmpty() && !rest.startsWith("/")) {
                rest = "/" + rest;
            }
        }
        boolean absolute = rest.startsWith("/");
        boolean directory = rest.endsWith("/") || rest.endsWith("/.") || rest.endsWith("/..");
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : rest.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (segments.isEmpty()) {
                    throw new FileOutsideAllowedLocationsException(path, "path " + path + " climbs with '..' above its root; a lake file path must stay "
                            + "inside the location it names");
                }
                segments.removeLast();
                continue;
            }
            segments.addLast(segment);
        }
        StringBuilder normal = new StringBuilder(prefix);
        if (absolute) {
            normal.append('/');
        }
        normal.append(String.join("/", segments));
        if (directory && !segments.isEmpty()) {
            normal.append('/');
        }
        return normal.toString();
    }

    /**
     * Whether {@code path} is {@code location} or lies under it, both in normal form, matching whole segments:
     * {@code /data/lake} holds {@code /data/lake/a.parquet}, not {@code /data/lake2/a.parquet}.
     */
    public static boolean isUnder(String path, String location)
    {
        String root = location.endsWith("/") ? location : location + "/";
        return path.startsWith(root) || path.equals(root.substring(0, root.length() - 1)) || path.equals(root);
    }

    /**
     * Whether {@code path}, as the catalog stores it, is already spelled in normal form: past a URI's scheme and
     * authority, no {@code .} or {@code ..} segment and no empty one ({@code //}). DuckLake's orphan removal compares the
     * files it lists with the catalog's paths as text, so a live file spelled otherwise would look orphaned.
     */
    public static boolean isNormalSpelling(String path)
    {
        Matcher uri = SCHEME.matcher(path);
        String rest = uri.matches() ? uri.group(3) : path;
        if (rest.startsWith("/")) {
            rest = rest.substring(1);
        }
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        if (rest.isEmpty()) {
            return true;
        }
        for (String segment : rest.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }
}
