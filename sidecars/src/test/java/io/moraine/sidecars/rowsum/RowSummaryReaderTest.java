package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.io.LocalFileSystem;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.moraine.sidecars.rowsum.RowIdShapes.dense;
import static io.moraine.sidecars.rowsum.RowIdShapes.flushed;
import static io.moraine.sidecars.rowsum.RowIdShapes.scattered;
import static io.moraine.sidecars.rowsum.RowIdShapes.shuffled;
import static io.moraine.sidecars.rowsum.RowIdShapes.sparse;
import static org.assertj.core.api.Assertions.assertThat;

/** Sidecars that must read as absent — missing, foreign, stale, truncated, corrupt, unknown — and are counted. */
class RowSummaryReaderTest
{
    @TempDir
    Path directory;
    private final RowSummaryMetrics metrics = new RowSummaryMetrics();
    private final RowSummaryReader reader = new RowSummaryReader(LocalFileSystem.INSTANCE, metrics);

    /** Small files of every set x order encoding, so every byte can be corrupted in turn. */
    private static final List<long[]> SHAPES = List.of(
            dense(100, 64),
            sparse(200, 9, 1),
            scattered(40),
            shuffled(dense(100, 64), 2),
            shuffled(sparse(200, 9, 3), 4),
            shuffled(scattered(40), 5),
            flushed(dense(0, 50), 6),
            flushed(sparse(120, 5, 7), 8),
            shuffled(flushed(scattered(30), 9), 10));

    /**
     * The RFC's layout has no checksum (a sidecar is trusted like its data file, whose transfers the store checks): a
     * flipped bit in the header or the order's prefix is always refused (identity, version, lengths and counts are all
     * cross-checked), one in a permuted order always too (a permutation with one entry changed is none); one inside the
     * set or a repeated order's offsets may decode to another consistent summary, and is then never an exception.
     */
    @Test
    void singleByteCorruptionsAreAbsentAndCountedWhereverTheLayoutCanTell()
            throws Exception
    {
        int refusedStructure = 0;
        int refusedPermutation = 0;
        int setOrOffsets = 0;
        int setOrOffsetsRefused = 0;
        for (int shape = 0; shape < SHAPES.size(); shape++) {
            DataFileIdentity file = file(shape);
            RowSummary summary = RowSummary.fromFileOrder(SHAPES.get(shape));
            byte[] good = RowSummaryFormat.encode(file, summary);
            RowSummaryHeader header = RowSummaryFormat.decodeHeader(good, good.length);
            long orderPrefix = summary.order() instanceof RowOrder.Repeated ? 8 : 0;
            long offsetsEnd = summary.order() instanceof RowOrder.Repeated repeated
                    ? header.orderOffset() + 8 + PackedInts.bytesFor(repeated.offsets().length, PackedInts.widthFor(summary.rowCount() + 1))
                    : header.orderOffset();
            for (int offset = 0; offset < good.length; offset++) {
                for (int flip : new int[] {0x01, 0x80}) {
                    byte[] bad = good.clone();
                    bad[offset] ^= (byte) flip;
                    Files.write(Path.of(file.sidecarPath()), bad);
                    long rejectedBefore = metrics.snapshot().rejected();
                    Optional<RowSummarySidecar> opened = reader.open(file);
                    boolean inSet = offset >= header.setOffset() && offset < header.orderOffset();
                    boolean inOffsets = offset >= header.orderOffset() + orderPrefix && offset < offsetsEnd;
                    if (inSet || inOffsets) {
                        Optional<RowSummary> loaded = opened.flatMap(RowSummarySidecar::loadSummary);
                        setOrOffsets++;
                        if (loaded.isEmpty()) {
                            setOrOffsetsRefused++;
                            assertThat(metrics.snapshot().rejected()).isEqualTo(rejectedBefore + 1);
                        }
                    }
                    else if (offset < header.orderOffset() + orderPrefix) {
                        assertThat(opened).as("shape %s, byte %s of the header or order prefix", shape, offset).isEmpty();
                        assertThat(metrics.snapshot().rejected()).isEqualTo(rejectedBefore + 1);
                        refusedStructure++;
                    }
                    else {
                        // the positions: membership still served, the positions refused
                        assertThat(opened.orElseThrow().loadSummary()).as("shape %s, byte %s of the positions", shape, offset).isEmpty();
                        assertThat(metrics.snapshot().rejected()).isEqualTo(rejectedBefore + 1);
                        refusedPermutation++;
                    }
                }
            }
        }
        assertThat(refusedStructure).isGreaterThan(9 * 2 * 56);
        assertThat(refusedPermutation).isGreaterThan(100);
        assertThat(setOrOffsetsRefused).isPositive().isLessThanOrEqualTo(setOrOffsets);
    }

    @Test
    void everyTruncationReadsAsAbsentAndIsCounted()
            throws IOException
    {
        int cases = 0;
        for (int shape = 0; shape < SHAPES.size(); shape++) {
            DataFileIdentity file = file(shape);
            byte[] good = RowSummaryFormat.encode(file, RowSummary.fromFileOrder(SHAPES.get(shape)));
            for (int length = 0; length < good.length; length++) {
                Files.write(Path.of(file.sidecarPath()), Arrays.copyOf(good, length));
                long rejectedBefore = metrics.snapshot().rejectedCorrupt();
                Optional<RowSummarySidecar> opened = reader.open(file);
                assertThat(opened.isEmpty() || opened.get().loadSummary().isEmpty()).as("shape %s cut at %s", shape, length).isTrue();
                assertThat(metrics.snapshot().rejectedCorrupt()).isEqualTo(rejectedBefore + 1);
                cases++;
            }
            Files.write(Path.of(file.sidecarPath()), good);
            assertThat(reader.open(file).orElseThrow().loadSummary()).contains(RowSummary.fromFileOrder(SHAPES.get(shape)));
        }
        assertThat(cases).isGreaterThan(9 * 100);
    }

    @Test
    void foreignAndStaleSidecarsAreRejectedOnIdentityBeforeTheSetIsRead()
            throws IOException
    {
        long[] ids = shuffled(sparse(1_000_000, 10, 11), 12);
        DataFileIdentity file = new DataFileIdentity(3, 40, directory.resolve("a.parquet").toString(), 9_000_000);
        RowSummaryWriter.write(LocalFileSystem.INSTANCE, file, RowSummary.fromFileOrder(ids));
        DataFileIdentity copiedBeside = new DataFileIdentity(3, 41, directory.resolve("b.parquet").toString(), 9_000_000);
        Files.copy(Path.of(file.sidecarPath()), Path.of(copiedBeside.sidecarPath()));

        List<DataFileIdentity> impostors = List.of(
                new DataFileIdentity(3, 41, file.path(), file.fileSize()),        // another file id at this path
                new DataFileIdentity(3, 40, file.path(), file.fileSize() + 1),    // stale: the file was rewritten
                new DataFileIdentity(4, 40, file.path(), file.fileSize()),        // another table
                new DataFileIdentity(3, 41, copiedBeside.path(), 9_000_000),      // foreign: copied beside another file
                new DataFileIdentity(3, 40, copiedBeside.path(), 9_000_000));     // same id, other path
        for (DataFileIdentity impostor : impostors) {
            long bytesBefore = metrics.snapshot().bytesRead();
            assertThat(reader.open(impostor)).as(impostor.toString()).isEmpty();
            assertThat(metrics.snapshot().bytesRead() - bytesBefore).isEqualTo(RowSummaryReader.DEFAULT_SPECULATIVE_BYTES);
        }
        assertThat(metrics.snapshot().rejectedIdentity()).isEqualTo(impostors.size());
        assertThat(metrics.snapshot().hits()).isZero();
        assertThat(reader.open(file)).isPresent();
        assertThat(metrics.snapshot().hits()).isEqualTo(1);
    }

    @Test
    void aPublishedHeaderIsFoundForItsOwnFileOnly()
            throws IOException
    {
        DataFileIdentity file = file(4);
        RowSummary summary = RowSummary.fromFileOrder(SHAPES.get(4));
        assertThat(reader.publishedHeader(file)).isEmpty();
        RowSummaryWriter.write(LocalFileSystem.INSTANCE, file, summary);
        RowSummaryHeader header = reader.publishedHeader(file).orElseThrow();
        assertThat(header.identity()).isEqualTo(file);
        assertThat(header.rowCount()).isEqualTo(summary.rowCount());
        assertThat(reader.publishedHeader(new DataFileIdentity(7, 999, file.path(), file.fileSize()))).isEmpty();
        byte[] bytes = Files.readAllBytes(Path.of(file.sidecarPath()));
        Files.write(Path.of(file.sidecarPath()), Arrays.copyOf(bytes, header.headerLength() - 1));
        assertThat(reader.publishedHeader(file)).isEmpty();
        assertThat(metrics.snapshot()).isEqualTo(new RowSummaryMetrics().snapshot());
    }

    @Test
    void aMissingSidecarIsAMissNotARejection()
    {
        DataFileIdentity file = new DataFileIdentity(1, 2, directory.resolve("nothing.parquet").toString(), 10);
        assertThat(reader.open(file)).isEmpty();
        assertThat(metrics.snapshot()).isEqualTo(new RowSummaryMetrics.Snapshot(0, 1, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void anUnknownVersionIsCountedApart()
            throws Exception
    {
        DataFileIdentity file = file(0);
        byte[] bytes = RowSummaryFormat.encode(file, RowSummary.fromFileOrder(SHAPES.get(0)));
        RowSummaryHeader header = RowSummaryFormat.decodeHeader(bytes, bytes.length);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 2);
        Files.write(Path.of(file.sidecarPath()), bytes);
        assertThat(reader.open(file)).isEmpty();
        assertThat(metrics.snapshot().rejectedVersion()).isEqualTo(1);
        assertThat(metrics.snapshot().rejected()).isEqualTo(1);
    }

    @Test
    void aReadErrorIsAbsentAndCounted()
    {
        LakeFileSystem failing = new LakeFileSystem()
        {
            @Override
            public InputFile newInputFile(String path, OptionalLong length)
            {
                return new InputFile()
                {
                    @Override
                    public long getLength()
                            throws IOException
                    {
                        throw new IOException("connection reset");
                    }

                    @Override
                    public SeekableInputStream newStream()
                            throws IOException
                    {
                        throw new IOException("connection reset");
                    }
                };
            }

            @Override
            public OutputFile newOutputFile(String path)
            {
                throw new UnsupportedOperationException();
            }

            @Override
            public void deleteFile(String path) {}

            @Override
            public List<String> listFiles(String directory)
            {
                return List.of();
            }

            @Override
            public List<ListedFile> listFilesWithModificationTimes(String directory)
            {
                return List.of();
            }
        };
        assertThat(new RowSummaryReader(failing, metrics).open(file(0))).isEmpty();
        assertThat(metrics.snapshot().readErrors()).isEqualTo(1);
    }

    @Test
    void aMillionRowSidecarLoadsItsSetInTwoReadsAndAPositionInAFewBytes()
            throws IOException
    {
        long[] ids = shuffled(sparse(1_000_000, 10, 13), 14);
        RowSummary summary = RowSummary.fromFileOrder(ids);
        DataFileIdentity file = new DataFileIdentity(3, 50, directory.resolve("m.parquet").toString(), 19_750_846);
        RowSummaryWriter.write(LocalFileSystem.INSTANCE, file, summary);

        RowSummarySidecar sidecar = reader.open(file).orElseThrow();
        RowSummaryHeader header = sidecar.header();
        assertThat(header.setLength()).isGreaterThan(RowSummaryReader.DEFAULT_SPECULATIVE_BYTES);
        // the speculative read, then the rest of the set and the order prefix (read at its longest), nothing more
        assertThat(metrics.snapshot().bytesRead()).isEqualTo(header.headerLength() + header.setLength() + RowSummaryFormat.MAX_ORDER_PREFIX);
        assertThat(metrics.snapshot().orderReads()).isZero();

        int compared = 0;
        for (int position = 0; position < ids.length; position += 9_973) {
            long bytesBefore = metrics.snapshot().bytesRead();
            assertThat(sidecar.positionsOf(ids[position]).orElseThrow()).containsExactly(position);
            assertThat(metrics.snapshot().bytesRead() - bytesBefore).isBetween(3L, 4L);   // 20 bits span 3 or 4 bytes
            compared++;
        }
        assertThat(compared).isEqualTo(101);
        assertThat(metrics.snapshot().orderReads()).isEqualTo(compared);

        // cut inside the order: the set still serves lookups, positions read as absent
        byte[] bytes = Files.readAllBytes(Path.of(file.sidecarPath()));
        Files.write(Path.of(file.sidecarPath()), Arrays.copyOf(bytes, bytes.length - 1_000_000));
        RowSummarySidecar truncated = reader.open(file).orElseThrow();
        assertThat(truncated.set()).isEqualTo(summary.set());
        assertThat(truncated.loadSummary()).isEmpty();
        int lastPosition = summary.positionsOf(truncated.set().toArray()[999_999])[0];
        assertThat(truncated.positionsOf(truncated.set().toArray()[999_999])).isEmpty();
        assertThat(truncated.positionsOf(truncated.set().toArray()[0])).isPresent();
        assertThat(lastPosition).isBetween(0, 999_999);
        assertThat(metrics.snapshot().rejectedCorrupt()).isEqualTo(2);

        // cut inside the set: absent
        Files.write(Path.of(file.sidecarPath()), Arrays.copyOf(bytes, Math.toIntExact(header.headerLength() + header.setLength() - 1)));
        assertThat(reader.open(file)).isEmpty();
        assertThat(metrics.snapshot().rejectedCorrupt()).isEqualTo(3);
    }

    @Test
    void aHeaderLongerThanTheSpeculativeReadIsExtended()
            throws IOException
    {
        String longName = "x".repeat(200) + ".parquet";
        DataFileIdentity file = new DataFileIdentity(1, 1, directory.resolve(longName).toString(), 5);
        RowSummary summary = RowSummary.fromFileOrder(shuffled(sparse(5_000, 4, 15), 16));
        RowSummaryWriter.write(LocalFileSystem.INSTANCE, file, summary);
        RowSummaryReader small = new RowSummaryReader(LocalFileSystem.INSTANCE, metrics, RowSummaryFormat.HEADER_PREFIX_LENGTH);
        RowSummarySidecar sidecar = small.open(file).orElseThrow();
        assertThat(sidecar.loadSummary()).contains(summary);
        assertThat(metrics.snapshot().rejected()).isZero();
    }

    private DataFileIdentity file(int shape)
    {
        return new DataFileIdentity(7, 100 + shape, directory.resolve("shape-" + shape + ".parquet").toString(), 4096 + shape);
    }
}
