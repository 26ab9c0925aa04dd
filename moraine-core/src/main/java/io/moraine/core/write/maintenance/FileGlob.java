package io.moraine.core.write.maintenance;

import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.StoreException;
import io.moraine.core.io.LakeFileSystem;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The files a path of {@code ducklake_add_data_files} names, as DuckDB 1.5.5's glob expands it: a path without
 * {@code *}, {@code ?} or {@code [} is one file; otherwise {@code *} and {@code ?} match within one path segment,
 * {@code [...]} a character of a class ({@code [!...]} not of it), a segment {@code **} any number of directories
 * (none included). The matches come in DuckDB's order (sorted by path); none is an error naming the pattern.
 */
final class FileGlob
{
    private FileGlob() {}

    static List<String> expand(LakeFileSystem files, String pattern)
    {
        String[] segments = pattern.split("/", -1);
        int first = 0;
        while (first < segments.length && !isGlob(segments[first])) {
            first++;
        }
        if (first == segments.length) {
            requireExists(files, pattern);
            return List.of(pattern);
        }
        String base = String.join("/", java.util.Arrays.copyOfRange(segments, 0, first));
        Pattern matcher = Pattern.compile(regex(java.util.Arrays.copyOfRange(segments, first, segments.length)));
        List<String> listed;
        try {
            listed = files.listFiles(base.isEmpty() ? "." : base);
        }
        catch (IOException e) {
            throw new StoreException("listing " + base + " to expand \"" + pattern + "\" failed: " + e.getMessage() + "; check the path and try again", e);
        }
        String localBase = base.startsWith("file://") ? base.substring("file://".length()) : base;
        List<String> matches = new ArrayList<>();
        for (String path : listed) {
            String relative = relative(path, base);
            if (relative == null) {
                relative = relative(path, localBase);
            }
            if (relative != null && matcher.matcher(relative).matches()) {
                matches.add(base + "/" + relative);
            }
        }
        if (matches.isEmpty()) {
            throw noMatch(pattern, null);
        }
        matches.sort(null);
        return matches;
    }

    static NotFoundException noMatch(String pattern, Exception cause)
    {
        return new NotFoundException("No files found that match the pattern \"" + pattern + "\"; check the path (a glob's * and ? match within one "
                + "directory, ** across directories)", cause);
    }

    private static void requireExists(LakeFileSystem files, String path)
    {
        try {
            files.newInputFile(path, OptionalLong.empty()).getLength();
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            throw noMatch(path, e);
        }
        catch (IOException e) {
            throw new StoreException("reading \"" + path + "\" to add it failed: " + e.getMessage() + "; check the path and try again", e);
        }
    }

    private static String relative(String path, String base)
    {
        String prefix = base.endsWith("/") ? base : base + "/";
        return path.startsWith(prefix) ? path.substring(prefix.length()) : null;
    }

    private static boolean isGlob(String segment)
    {
        return segment.indexOf('*') >= 0 || segment.indexOf('?') >= 0 || segment.indexOf('[') >= 0;
    }

    private static String regex(String[] segments)
    {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < segments.length; i++) {
            boolean last = i == segments.length - 1;
            if (segments[i].equals("**")) {
                regex.append(last ? ".*" : "(?:[^/]+/)*");
                continue;
            }
            regex.append(segment(segments[i]));
            if (!last) {
                regex.append('/');
            }
        }
        return regex.toString();
    }

    private static String segment(String glob)
    {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> regex.append("[^/]*");
                case '?' -> regex.append("[^/]");
                case '[' -> {
                    int close = glob.indexOf(']', i + 1);
                    if (close < 0) {
                        regex.append("\\[");
                        continue;
                    }
                    String chars = glob.substring(i + 1, close);
                    boolean negated = chars.startsWith("!");
                    regex.append('[').append(negated ? "^" : "").append(chars.substring(negated ? 1 : 0).replace("\\", "\\\\").replace("[", "\\[")).append(']');
                    i = close;
                }
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return regex.toString();
    }
}
