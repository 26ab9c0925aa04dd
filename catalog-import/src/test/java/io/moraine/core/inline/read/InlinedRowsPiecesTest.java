package io.moraine.core.inline.read;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.scan.ScanTask;
import io.moraine.core.scan.TaskStream;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.types.ColumnProjection;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import io.moraine.importer.OracleImports;
import io.moraine.testing.DuckLakeOracle;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Inlined rows cut into bounded pieces and read back without a catalog equal the rows the inline reader reads from the
 * store: every row once, in the same order, each column found by id under every schema version, within the bounds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InlinedRowsPiecesTest
{
    private static final int ROWS = 700;

    private Path temp;
    private MoraineCatalog catalog;
    private long tableId;

    @BeforeAll
    void setUp()
            throws Exception
    {
        temp = Files.createTempDirectory("moraine-inlined-pieces");
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CALL lake.set_option('data_inlining_row_limit', 1000)");
            oracle.execute("CREATE TABLE lake.t (id BIGINT, name VARCHAR, s STRUCT(a INTEGER, b VARCHAR))");
            // Three schema versions: before the rename, after it, after an added column.
            for (int insert = 0; insert < 10; insert++) {
                oracle.execute("INSERT INTO lake.t SELECT i, repeat('x', i % 50) || i, {'a': i, 'b': 'b' || i} FROM range(" + insert * 30 + ", " + (insert + 1) * 30 + ") r(i)");
            }
            oracle.execute("ALTER TABLE lake.t RENAME COLUMN name TO label");
            oracle.execute("INSERT INTO lake.t SELECT i, 'l' || i, NULL FROM range(300, 500) r(i)");
            oracle.execute("ALTER TABLE lake.t ADD COLUMN extra DOUBLE");
            oracle.execute("INSERT INTO lake.t SELECT i, 'e' || i, {'a': -i, 'b': NULL}, i / 2 FROM range(500, " + ROWS + ") r(i)");
            oracle.execute("DELETE FROM lake.t WHERE id % 97 = 3");
            OracleImports.importInto(oracle, temp.resolve("copy.ducklake"), store);
        }
        catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY);
        try (CatalogSnapshot head = catalog.latest()) {
            tableId = head.table("main", "t").orElseThrow().getLong("table_id");
        }
    }

    @AfterAll
    void tearDown()
    {
        if (catalog != null) {
            catalog.close();
        }
    }

    @Test
    void piecesHoldEveryRowOnceWithinTheRowBound()
    {
        try (CatalogSnapshot snapshot = catalog.latest(); BufferAllocator allocator = new RootAllocator()) {
            List<TableColumn> columns = TableSchema.of(snapshot.columnTree(tableId)).columns();
            List<String> expected = direct(snapshot, columns, allocator);
            assertThat(expected).hasSize(ROWS - 8);
            List<InlinedRowsPiece> pieces = pieces(snapshot, columns, new InlinedRowsPieces.Bounds(64, 1L << 20), allocator);
            assertThat(pieces).allSatisfy(piece -> assertThat(piece.rows()).isBetween(1L, 64L));
            // Rows of one schema version per piece: 300 + 200 + 200 rows (less the deleted) take at least 5 + 4 + 4 pieces.
            assertThat(pieces.size()).isGreaterThanOrEqualTo(13);
            assertThat(readBack(pieces, columns, allocator)).isEqualTo(expected);
        }
    }

    @Test
    void piecesStayWithinTheByteBound()
    {
        try (CatalogSnapshot snapshot = catalog.latest(); BufferAllocator allocator = new RootAllocator()) {
            List<TableColumn> columns = TableSchema.of(snapshot.columnTree(tableId)).columns();
            int bound = 8 << 10;
            List<InlinedRowsPiece> pieces = pieces(snapshot, columns, new InlinedRowsPieces.Bounds(10_000, bound), allocator);
            assertThat(pieces).allSatisfy(piece -> assertThat(piece.arrowStream().length).isLessThanOrEqualTo(bound));
            assertThat(pieces.size()).isGreaterThan(3);
            assertThat(readBack(pieces, columns, allocator)).isEqualTo(direct(snapshot, columns, allocator));

            // A bound below one row's bytes still moves every row, one a piece.
            List<InlinedRowsPiece> single = pieces(snapshot, columns, new InlinedRowsPieces.Bounds(10_000, 16), allocator);
            assertThat(single).hasSize(ROWS - 8).allSatisfy(piece -> assertThat(piece.rows()).isEqualTo(1));
            assertThat(readBack(single, columns, allocator)).isEqualTo(direct(snapshot, columns, allocator));
        }
    }

    @Test
    void prunedAndAbsentColumnsAndNoColumnsAtAll()
    {
        try (CatalogSnapshot snapshot = catalog.latest(); BufferAllocator allocator = new RootAllocator()) {
            TableSchema schema = TableSchema.of(snapshot.columnTree(tableId));
            TableColumn s = schema.column("s").orElseThrow();
            long a = s.children().getFirst().columnId();
            List<TableColumn> columns = List.of(schema.column("extra").orElseThrow(), ColumnProjection.prune(s, Set.of(a)).orElseThrow(),
                    schema.column("label").orElseThrow());
            List<InlinedRowsPiece> pieces = pieces(snapshot, columns, new InlinedRowsPieces.Bounds(100, 1L << 20), allocator);
            assertThat(readBack(pieces, columns, allocator)).isEqualTo(direct(snapshot, columns, allocator));
            try (InlinedPieceReader first = InlinedPieceReader.open(pieces.getFirst().arrowStream(), allocator)) {
                assertThat(first.columns()).isEqualTo(columns);
                InlinedRowsReader.Batch batch = first.next();
                assertThat(batch.vector(0)).as("extra did not exist yet").isNull();
                assertThat(batch.writtenAs(2).name()).as("label was still called name").isEqualTo("name");
            }

            // A count reads no column: the pieces carry the row columns alone.
            List<InlinedRowsPiece> counts = pieces(snapshot, List.of(), new InlinedRowsPieces.Bounds(10_000, 1L << 20), allocator);
            assertThat(counts.stream().mapToLong(InlinedRowsPiece::rows).sum()).isEqualTo(ROWS - 8);
            assertThat(readBack(counts, List.of(), allocator)).isEqualTo(direct(snapshot, List.of(), allocator));
        }
    }

    @Test
    void changePiecesHoldEachSidesRowsAsTheStoreReaderReadsThem()
    {
        try (CatalogSnapshot snapshot = catalog.latest(); BufferAllocator allocator = new RootAllocator()) {
            List<TableColumn> columns = TableSchema.of(snapshot.columnTree(tableId)).columns();
            List<InlinedChangesTask> sides = ChangeFeed.forTable(snapshot, tableId, 0).planTasks().stream()
                    .filter(InlinedChangesTask.class::isInstance).map(InlinedChangesTask.class::cast).toList();
            assertThat(sides).hasSize(2);
            for (InlinedChangesTask side : sides) {
                for (List<TableColumn> read : List.of(columns, List.<TableColumn>of())) {
                    List<String> expected;
                    try (InlinedRowsReader reader = InlinedRowsReader.openChanges(snapshot, side, read, InlineReader.DEFAULT_WINDOW_ROWS, allocator)) {
                        expected = rows(reader, read.size(), batch -> null);
                    }
                    assertThat(expected).as(side.kind().toString()).hasSize(switch (side.kind()) {
                        case INSERTION -> ROWS;
                        case DELETION -> 8;
                    });
                    List<InlinedRowsPiece> pieces = new ArrayList<>();
                    try (InlinedRowsPieces stream = InlinedRowsPieces.openChanges(snapshot, side, read, new InlinedRowsPieces.Bounds(64, 1L << 20), allocator)) {
                        stream.forEachRemaining(pieces::add);
                    }
                    assertThat(pieces).allSatisfy(piece -> assertThat(piece.rows()).isBetween(1L, 64L));
                    assertThat(readBack(pieces, read, allocator)).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void aDamagedPieceIsRefused()
    {
        try (CatalogSnapshot snapshot = catalog.latest(); BufferAllocator allocator = new RootAllocator()) {
            List<TableColumn> columns = TableSchema.of(snapshot.columnTree(tableId)).columns();
            byte[] piece = pieces(snapshot, columns, new InlinedRowsPieces.Bounds(100, 1L << 20), allocator).getFirst().arrowStream();
            assertThatThrownBy(() -> drain(java.util.Arrays.copyOf(piece, piece.length / 2), allocator)).isInstanceOf(CorruptionException.class);
            assertThatThrownBy(() -> drain(new byte[] {1, 2, 3}, allocator)).isInstanceOf(CorruptionException.class);
        }
    }

    private static void drain(byte[] piece, BufferAllocator allocator)
    {
        try (InlinedPieceReader reader = InlinedPieceReader.open(piece, allocator)) {
            while (reader.hasNext()) {
                reader.next();
            }
        }
    }

    private List<InlinedRowsPiece> pieces(CatalogSnapshot snapshot, List<TableColumn> columns, InlinedRowsPieces.Bounds bounds, BufferAllocator allocator)
    {
        List<InlinedRowsPiece> pieces = new ArrayList<>();
        try (InlinedRowsPieces stream = InlinedRowsPieces.open(snapshot, task(snapshot), columns, bounds, allocator)) {
            while (stream.hasNext()) {
                pieces.add(stream.next());
            }
            assertThat(stream.pieces()).isEqualTo(pieces.size());
        }
        assertThat(allocator.getAllocatedMemory()).isZero();
        return pieces;
    }

    private List<String> direct(CatalogSnapshot snapshot, List<TableColumn> columns, BufferAllocator allocator)
    {
        try (InlinedRowsReader reader = InlinedRowsReader.open(snapshot, task(snapshot), columns, InlineReader.DEFAULT_WINDOW_ROWS, allocator)) {
            return rows(reader, columns.size(), batch -> null);
        }
    }

    private static List<String> readBack(List<InlinedRowsPiece> pieces, List<TableColumn> columns, BufferAllocator allocator)
    {
        List<String> rows = new ArrayList<>();
        for (InlinedRowsPiece piece : pieces) {
            try (InlinedPieceReader reader = InlinedPieceReader.open(piece.arrowStream(), allocator)) {
                assertThat(reader.columns()).isEqualTo(columns);
                Set<List<TableColumn>> versions = new HashSet<>();
                List<String> read = rows(reader, columns.size(), batch -> versions.add(batch.writtenAs()));
                assertThat(versions).as("one schema version per piece").hasSize(1);
                assertThat(read).hasSize((int) piece.rows());
                rows.addAll(read);
            }
        }
        assertThat(allocator.getAllocatedMemory()).isZero();
        return rows;
    }

    /** Each row as text: row id, begin and end snapshot, then each read column as its version named it and its value. */
    private static List<String> rows(InlinedBatchSource source, int columns, Function<InlinedRowsReader.Batch, Object> eachBatch)
    {
        List<String> rows = new ArrayList<>();
        while (source.hasNext()) {
            InlinedRowsReader.Batch batch = source.next();
            eachBatch.apply(batch);
            for (int row = 0; row < batch.rows(); row++) {
                StringBuilder text = new StringBuilder()
                        .append(batch.rowIds().get(row)).append('|').append(batch.beginSnapshots().get(row)).append('|')
                        .append(batch.endSnapshots().isNull(row) ? "live" : batch.endSnapshots().get(row));
                for (int i = 0; i < columns; i++) {
                    FieldVector vector = batch.vector(i);
                    text.append('|').append(vector == null ? "absent" : batch.writtenAs(i).name() + "=" + vector.getObject(row));
                }
                rows.add(text.toString());
            }
        }
        return rows;
    }

    private InlinedRowsTask task(CatalogSnapshot snapshot)
    {
        try (TaskStream tasks = ScanBuilder.forTable(snapshot, tableId).build().planTasks()) {
            while (tasks.hasNext()) {
                ScanTask task = tasks.next();
                if (task instanceof InlinedRowsTask inlined) {
                    return inlined;
                }
            }
        }
        throw new AssertionError("no inlined rows planned");
    }
}
