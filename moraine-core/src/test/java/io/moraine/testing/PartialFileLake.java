package io.moraine.testing;

import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.HiddenFields;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalLong;

/**
 * A DuckLake lake whose table {@code main.t (id BIGINT, v VARCHAR)} is one partial file: three inlined inserts —
 * ids 1-2 at {@link #firstInsert}, 3 at {@link #secondInsert}, 4-5 at {@link #lastInsert} — that DuckLake's
 * {@code ducklake_flush_inlined_data} wrote into one Parquet file ({@code begin_snapshot} the first insert,
 * {@code partial_max} the last), each row's snapshot in its {@code _ducklake_internal_snapshot_id}. Made
 * {@link #withoutSnapshotColumn}, the file is then rewritten by DuckDB's Parquet writer without that column (the other
 * columns, row ids included, keep their field ids) and the catalog's size and footer size updated: a partial file
 * as a writer that forgot the column would leave it, which DuckLake 1.5.5 itself refuses to read at an earlier snapshot.
 */
public final class PartialFileLake
        implements AutoCloseable
{
    /** The table, as every reader's refusal names it. */
    public static final String TABLE = "main.t";

    private final DuckLakeOracle oracle;
    private final long firstInsert;
    private final long secondInsert;
    private final long lastInsert;
    private final long dataFileId;
    private final String path;
    private final long sizeBytes;

    private PartialFileLake(DuckLakeOracle oracle, long firstInsert, long secondInsert, long lastInsert, long dataFileId, String path, long sizeBytes)
    {
        this.oracle = oracle;
        this.firstInsert = firstInsert;
        this.secondInsert = secondInsert;
        this.lastInsert = lastInsert;
        this.dataFileId = dataFileId;
        this.path = path;
        this.sizeBytes = sizeBytes;
    }

    /** The lake as DuckLake's flush left it: the partial file has its snapshot column. */
    public static PartialFileLake create(Path directory)
            throws SQLException
    {
        return create(directory, false);
    }

    /** The lake with the partial file rewritten without its {@code _ducklake_internal_snapshot_id} column. */
    public static PartialFileLake withoutSnapshotColumn(Path directory)
            throws SQLException
    {
        return create(directory, true);
    }

    private static PartialFileLake create(Path directory, boolean strip)
            throws SQLException
    {
        DuckLakeOracle oracle = DuckLakeOracle.create(directory, DuckLakeOracle.CatalogDatabase.DUCKDB);
        try {
            oracle.execute("CALL lake.set_option('data_inlining_row_limit', 100)");
            oracle.execute("CREATE TABLE lake.main.t (id BIGINT, v VARCHAR)");
            oracle.execute("INSERT INTO lake.main.t VALUES (1, 'a'), (2, 'b')");
            long first = head(oracle);
            oracle.execute("INSERT INTO lake.main.t VALUES (3, 'c')");
            long second = head(oracle);
            oracle.execute("INSERT INTO lake.main.t VALUES (4, 'd'), (5, 'e')");
            long last = head(oracle);
            oracle.execute("CALL ducklake_flush_inlined_data('lake')");
            List<List<String>> files = oracle.query("SELECT data_file_id, path, begin_snapshot, partial_max FROM __ducklake_metadata_lake.ducklake_data_file");
            if (files.size() != 1 || !files.getFirst().get(2).equals(Long.toString(first)) || !files.getFirst().get(3).equals(Long.toString(last))) {
                throw new IllegalStateException("expected one flushed file with begin_snapshot " + first + " and partial_max " + last + ", found " + files);
            }
            long dataFileId = Long.parseLong(files.getFirst().get(0));
            Path table = oracle.dataPath().resolve("main").resolve("t");
            String path = table.resolve(files.getFirst().get(1)).toString();
            if (strip) {
                path = stripSnapshotColumn(oracle, dataFileId, table, files.getFirst().get(1));
            }
            long size = Files.size(Path.of(path));
            return new PartialFileLake(oracle, first, second, last, dataFileId, path, size);
        }
        catch (SQLException | IOException | RuntimeException e) {
            oracle.close();
            throw e instanceof SQLException sql ? sql : new SQLException("cannot build the partial-file lake: " + e.getMessage(), e);
        }
    }

    private static long head(DuckLakeOracle oracle)
            throws SQLException
    {
        return Long.parseLong(oracle.query("SELECT max(snapshot_id) FROM __ducklake_metadata_lake.ducklake_snapshot").getFirst().getFirst());
    }

    /**
     * Rewrites the file without the snapshot column, every other column under its own field id, under a new name (no
     * cache of DuckDB's knows it), records its name and sizes in the catalog and returns its path.
     */
    private static String stripSnapshotColumn(DuckLakeOracle oracle, long dataFileId, Path table, String name)
            throws SQLException, IOException
    {
        Path original = table.resolve(name);
        List<List<String>> fields = oracle.query("SELECT name, field_id FROM parquet_schema('" + original + "') WHERE field_id IS NOT NULL");
        StringBuilder columns = new StringBuilder();
        StringBuilder fieldIds = new StringBuilder();
        boolean hadSnapshots = false;
        for (List<String> field : fields) {
            if (Long.parseLong(field.get(1)) == DataFileTask.SNAPSHOT_ID_FIELD_ID) {
                hadSnapshots = true;
                continue;
            }
            columns.append(columns.isEmpty() ? "" : ", ").append('"').append(field.get(0)).append('"');
            fieldIds.append(fieldIds.isEmpty() ? "" : ", ").append('"').append(field.get(0)).append("\": ").append(field.get(1));
        }
        if (!hadSnapshots) {
            throw new IllegalStateException("DuckLake's flush output " + original + " has no " + HiddenFields.SNAPSHOT_ID_NAME + " column: " + fields);
        }
        String strippedName = name.replace(".parquet", "-stripped.parquet");
        Path stripped = table.resolve(strippedName);
        oracle.execute("COPY (SELECT " + columns + " FROM read_parquet('" + original + "')) TO '" + stripped + "' (FORMAT parquet, FIELD_IDS {" + fieldIds + "})");
        Files.delete(original);
        oracle.execute("UPDATE __ducklake_metadata_lake.ducklake_data_file SET path = '" + strippedName + "', file_size_bytes = " + Files.size(stripped)
                + ", footer_size = " + footerSize(stripped) + " WHERE data_file_id = " + dataFileId);
        // DuckLake caches what it read of the catalog: attached again, it reads the changed row.
        oracle.detach();
        oracle.execute("ATTACH '" + oracle.catalogSpec() + "' AS lake (DATA_PATH '" + oracle.dataPath() + "/')");
        return stripped.toString();
    }

    /** The length of a Parquet file's footer metadata, from its last eight bytes. */
    private static long footerSize(Path file)
            throws IOException
    {
        try (RandomAccessFile input = new RandomAccessFile(file.toFile(), "r")) {
            byte[] tail = new byte[8];
            input.seek(input.length() - 8);
            input.readFully(tail);
            return Integer.toUnsignedLong(ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
        }
    }

    public DuckLakeOracle oracle()
    {
        return oracle;
    }

    public long firstInsert()
    {
        return firstInsert;
    }

    public long secondInsert()
    {
        return secondInsert;
    }

    public long lastInsert()
    {
        return lastInsert;
    }

    /** The partial file's resolved path, as a reader's task names it. */
    public String path()
    {
        return path;
    }

    /** The ids the table holds at {@code snapshot}, ascending. */
    public List<Long> idsAt(long snapshot)
    {
        if (snapshot >= lastInsert) {
            return List.of(1L, 2L, 3L, 4L, 5L);
        }
        return snapshot >= secondInsert ? List.of(1L, 2L, 3L) : snapshot >= firstInsert ? List.of(1L, 2L) : List.of();
    }

    /** The refusal every reader gives for the table at {@code snapshot} (before {@link #lastInsert}) when the file lacks its snapshots. */
    public String scanRefusal(long snapshot)
    {
        return HiddenFields.forScan(task(snapshot)).refusal(TABLE).getMessage();
    }

    /** The refusal every reader gives for the table's insertions in {@code [from, to]} when the file lacks its snapshots. */
    public String insertionsRefusal(long from, long to)
    {
        return HiddenFields.forInsertions(task(to), from, to).refusal(TABLE).getMessage();
    }

    private DataFileTask task(long snapshot)
    {
        return new DataFileTask(1, snapshot, dataFileId, path, sizeBytes, 5, OptionalLong.empty(), OptionalLong.empty(), firstInsert, OptionalLong.of(lastInsert),
                List.of(), new long[0], OptionalLong.empty(), List.of(), 0, sizeBytes);
    }

    @Override
    public void close()
            throws SQLException
    {
        oracle.close();
    }
}
