package io.moraine.core.store;

import io.moraine.core.error.InvalidArgumentException;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Where a moraine store lives. The accepted forms are:
 * <ul>
 *   <li>a local path ({@code /var/lib/lake}, {@code ./lake}) or {@code file:///var/lib/lake}: a directory, created
 *       if absent;</li>
 *   <li>{@code memory://} (a fresh ephemeral store per open) or {@code memory://<name>} (an ephemeral store shared by
 *       every open of that name in this JVM, for tests and scratch work);</li>
 *   <li>{@code s3://<bucket>[/<prefix>]}: keys under {@code <prefix>} in an existing bucket. The S3 client takes the
 *       {@link S3Settings} the open's {@link StoreOptions} give for the store, else reads its settings from the
 *       environment ({@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY}, {@code AWS_REGION},
 *       {@code AWS_ENDPOINT}, {@code AWS_ALLOW_HTTP}, ...).</li>
 * </ul>
 *
 * @param scheme the kind of store
 * @param objectStoreUrl the URL SlateDB resolves to an object store (always with an empty path)
 * @param dbPath the path of the database inside that object store
 * @param text the URI as the user wrote it, for messages
 */
public record StoreUri(Scheme scheme, String objectStoreUrl, String dbPath, String text)
{
    private static final String FORMS = "use a local path, file:///<absolute path>, memory://[<name>] or s3://<bucket>[/<prefix>]";

    public enum Scheme
    {
        FILE, MEMORY, S3
    }

    public StoreUri
    {
        requireNonNull(scheme, "scheme is null");
        requireNonNull(objectStoreUrl, "objectStoreUrl is null");
        requireNonNull(dbPath, "dbPath is null");
        requireNonNull(text, "text is null");
    }

    public static StoreUri parse(String text)
    {
        if (text == null || text.isBlank()) {
            throw new InvalidArgumentException("store URI is empty; " + FORMS);
        }
        String trimmed = text.strip();
        int schemeEnd = trimmed.indexOf("://");
        if (schemeEnd < 0) {
            if (trimmed.contains(":") && !trimmed.startsWith("/") && !trimmed.startsWith(".")) {
                throw new InvalidArgumentException("store URI '" + text + "' is malformed; " + FORMS);
            }
            return local(Path.of(trimmed).toAbsolutePath().normalize(), text);
        }
        String scheme = trimmed.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
        String rest = trimmed.substring(schemeEnd + 3);
        return switch (scheme) {
            case "file" -> parseFile(rest, text);
            case "memory" -> parseMemory(rest, text);
            case "s3" -> parseS3(rest, text);
            default -> throw new InvalidArgumentException("store URI '" + text + "' has unsupported scheme '" + scheme + "'; " + FORMS);
        };
    }

    private static StoreUri parseFile(String rest, String text)
    {
        if (!rest.startsWith("/")) {
            throw new InvalidArgumentException("store URI '" + text + "' names a host or a relative path; file URIs take an absolute path: file:///<absolute path>");
        }
        try {
            return local(Path.of(new URI("file://" + rest)).normalize(), text);
        }
        catch (URISyntaxException | IllegalArgumentException e) {
            throw new InvalidArgumentException("store URI '" + text + "' is not a valid file URI: " + e.getMessage() + "; " + FORMS, e);
        }
    }

    private static StoreUri local(Path directory, String text)
    {
        String path = directory.toString();
        if (path.equals("/")) {
            throw new InvalidArgumentException("store URI '" + text + "' is the file system root; name a directory for the store");
        }
        return new StoreUri(Scheme.FILE, "file:///", path.substring(1), text);
    }

    private static StoreUri parseMemory(String rest, String text)
    {
        String name = rest.startsWith("/") ? rest.substring(1) : rest;
        if (name.contains("/")) {
            throw new InvalidArgumentException("store URI '" + text + "' has a path; in-memory stores take at most a name: memory://<name>");
        }
        return new StoreUri(Scheme.MEMORY, "memory:///", "moraine", text);
    }

    private static StoreUri parseS3(String rest, String text)
    {
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : stripSlashes(rest.substring(slash + 1));
        if (bucket.isEmpty() || !bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
            throw new InvalidArgumentException("store URI '" + text + "' has no valid bucket name; use s3://<bucket>[/<prefix>] with an existing bucket");
        }
        return new StoreUri(Scheme.S3, "s3://" + bucket, prefix, text);
    }

    private static String stripSlashes(String prefix)
    {
        String result = prefix;
        while (result.endsWith("/")) {
            result = result.substring(0, result.length() - 1);
        }
        return result;
    }

    /**
     * The store at {@code relativePath} under this one: a sub-directory, a longer S3 prefix, or (in memory) a database
     * path of its own in the same named object store. SlateDB keeps its own objects under {@code manifest/},
     * {@code wal/} and {@code compacted/}, so any other first segment leaves this store's objects alone.
     */
    public StoreUri resolve(String relativePath)
    {
        if (relativePath.isEmpty() || relativePath.startsWith("/") || relativePath.endsWith("/") || relativePath.contains("//")) {
            throw new InvalidArgumentException("store path '" + relativePath + "' under " + text + " must be relative, without empty segments");
        }
        return switch (scheme) {
            case FILE -> new StoreUri(scheme, objectStoreUrl, dbPath + "/" + relativePath, "/" + dbPath + "/" + relativePath);
            case S3 -> {
                String path = dbPath.isEmpty() ? relativePath : dbPath + "/" + relativePath;
                yield new StoreUri(scheme, objectStoreUrl, path, objectStoreUrl + "/" + path);
            }
            case MEMORY -> new StoreUri(scheme, objectStoreUrl, dbPath + "/" + relativePath, text);
        };
    }

    /** For {@code memory://<name>}: the name shared by opens in this JVM; empty for a private store. */
    public String memoryName()
    {
        if (scheme != Scheme.MEMORY) {
            return "";
        }
        String rest = text.strip().substring(text.strip().indexOf("://") + 3);
        return rest.startsWith("/") ? rest.substring(1) : rest;
    }

    @Override
    public String toString()
    {
        return text;
    }
}
