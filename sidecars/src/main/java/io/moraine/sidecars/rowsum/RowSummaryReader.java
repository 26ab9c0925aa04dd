package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LakeFileSystem;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Opens published row summaries. A sidecar that is missing, names another file, has an unknown version, is short or
 * does not decode is "absent": counted in {@link RowSummaryMetrics}, logged once per file, and never an exception —
 * the caller falls back to deriving the summary from the data file.
 */
public final class RowSummaryReader
{
    /** The first read's size: header and set of files up to roughly 30,000 sparse rows arrive in one request. */
    public static final int DEFAULT_SPECULATIVE_BYTES = 64 * 1024;
    private static final System.Logger LOG = System.getLogger(RowSummaryReader.class.getName());
    private static final int MAX_LOGGED_FILES = 10_000;

    private final LakeFileSystem files;
    private final RowSummaryMetrics metrics;
    private final int speculativeBytes;
    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    public RowSummaryReader(LakeFileSystem files, RowSummaryMetrics metrics)
    {
        this(files, metrics, DEFAULT_SPECULATIVE_BYTES);
    }

    public RowSummaryReader(LakeFileSystem files, RowSummaryMetrics metrics, int speculativeBytes)
    {
        this.files = requireNonNull(files, "files");
        this.metrics = requireNonNull(metrics, "metrics");
        if (speculativeBytes < RowSummaryFormat.HEADER_PREFIX_LENGTH) {
            throw new IllegalArgumentException("the speculative read must cover the header's first "
                    + RowSummaryFormat.HEADER_PREFIX_LENGTH + " bytes, got " + speculativeBytes);
        }
        this.speculativeBytes = speculativeBytes;
    }

    public RowSummaryMetrics metrics()
    {
        return metrics;
    }

    /**
     * The sidecar of {@code file} with its set decoded: one ranged read, a second when the header says the set runs past
     * the first. The order is not fetched; {@link RowSummarySidecar} reads its entries on demand.
     */
    public Optional<RowSummarySidecar> open(DataFileIdentity file)
    {
        RangeReader reader = new RangeReader(files, file.sidecarPath(), metrics);
        try {
            byte[] bytes = reader.read(0, speculativeBytes);
            if (bytes.length == 0) {
                throw new RowSummaryFormatException(RowSummaryFormatException.Kind.SHORT_READ, "empty sidecar");
            }
            // a first read shorter than asked for means the file ended there, and a second read would find nothing
            boolean complete = bytes.length < speculativeBytes;
            int headerLength = RowSummaryFormat.headerLength(bytes, bytes.length);
            if (headerLength > bytes.length && !complete) {
                bytes = extend(reader, bytes, headerLength);
                complete = bytes.length < headerLength;
            }
            RowSummaryHeader header = RowSummaryFormat.decodeHeader(bytes, bytes.length);
            if (!header.describes(file)) {
                metrics.rejectedIdentity();
                logOnce(file, "names another file: " + header.identity() + ", expected " + file);
                return Optional.empty();
            }
            long needed = header.headerLength() + header.setLength() + Math.min(header.orderLength(), RowSummaryFormat.MAX_ORDER_PREFIX);
            if (needed > bytes.length && !complete) {
                bytes = extend(reader, bytes, needed);
            }
            if (bytes.length < needed) {
                throw new RowSummaryFormatException(RowSummaryFormatException.Kind.SHORT_READ,
                        "header, set and order prefix need " + needed + " bytes, the sidecar has " + bytes.length);
            }
            RowIdSet set = RowSummaryFormat.decodeSet(header, bytes, Math.toIntExact(header.setOffset()));
            Optional<OrderLayout> layout = header.orderLength() == 0
                    ? Optional.empty()
                    : Optional.of(RowSummaryFormat.decodeOrderLayout(header, set, bytes, Math.toIntExact(header.orderOffset())));
            metrics.hit();
            return Optional.of(new RowSummarySidecar(file, header, set, layout, reader, this));
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            metrics.miss();
            return Optional.empty();
        }
        catch (IOException e) {
            metrics.readError();
            logOnce(file, "could not be read: " + e);
            return Optional.empty();
        }
        catch (RowSummaryFormatException e) {
            rejected(file, e);
            return Optional.empty();
        }
    }

    /** The first read stopped short of what the header says it needs: one more read for the rest. */
    private static byte[] extend(RangeReader reader, byte[] bytes, long needed)
            throws IOException
    {
        byte[] rest = reader.read(bytes.length, Math.toIntExact(needed - bytes.length));
        byte[] all = Arrays.copyOf(bytes, bytes.length + rest.length);
        System.arraycopy(rest, 0, all, bytes.length, rest.length);
        return all;
    }

    /**
     * The header of {@code file}'s sidecar when there is one describing it: one read of exactly the header's length
     * (known from the path), which is what a publish pass pays for a file already published. Not counted in
     * {@link #metrics()}, and not a check of the halves: a sidecar cut after its header still passes here and still reads
     * as absent on {@link #open}.
     */
    public Optional<RowSummaryHeader> publishedHeader(DataFileIdentity file)
    {
        int headerLength = RowSummaryFormat.headerLength(file.path().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        try {
            byte[] bytes = new RangeReader(files, file.sidecarPath(), new RowSummaryMetrics()).read(0, headerLength);
            RowSummaryHeader header = RowSummaryFormat.decodeHeader(bytes, bytes.length);
            return header.describes(file) ? Optional.of(header) : Optional.empty();
        }
        catch (IOException | RowSummaryFormatException e) {
            return Optional.empty();
        }
    }

    void rejected(DataFileIdentity file, RowSummaryFormatException e)
    {
        metrics.rejected(e.kind());
        logOnce(file, "is unusable (" + e.kind() + "): " + e.getMessage());
    }

    void readError(DataFileIdentity file, IOException e)
    {
        metrics.readError();
        logOnce(file, "could not be read: " + e);
    }

    private void logOnce(DataFileIdentity file, String message)
    {
        if (logged.size() < MAX_LOGGED_FILES && logged.add(file.sidecarPath())) {
            LOG.log(System.Logger.Level.WARNING, "row summary " + file.sidecarPath() + " " + message + "; deriving it from the data file instead");
        }
    }
}
