package io.moraine.testing;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A DuckLake lake of many tiny Parquet files, written by DuckDB with inlining off (the "table fed by many small
 * commits"): table {@code t} holds {@code files} single-row files ({@code id} = 0..files-1, {@code v} = id * 3,
 * {@code s} = 's' || id); table {@code d} holds {@value #DELETED_TABLE_FILES} files of five rows each, and a DELETE of
 * every fifth row gives each of them a tiny delete file.
 */
public final class TinyFileLake
{
    public static final int DELETED_TABLE_FILES = 8;

    private TinyFileLake() {}

    public static DuckLakeOracle create(Path directory, int files)
            throws SQLException
    {
        DuckLakeOracle oracle = DuckLakeOracle.create(directory, DuckLakeOracle.CatalogDatabase.DUCKDB);
        try {
            oracle.execute("CALL lake.set_option('data_inlining_row_limit', 0)");
            oracle.execute("CREATE TABLE lake.main.t (id BIGINT, v BIGINT, s VARCHAR)");
            oracle.execute("CREATE TABLE lake.main.d (id BIGINT, v BIGINT)");
            // One transaction: each INSERT still writes its own file, without a snapshot (and its catalog writes) per row.
            oracle.connection().setAutoCommit(false);
            try (PreparedStatement insert = oracle.connection().prepareStatement("INSERT INTO lake.main.t VALUES (?, ?, ?)")) {
                for (long id = 0; id < files; id++) {
                    insert.setLong(1, id);
                    insert.setLong(2, id * 3);
                    insert.setString(3, "s" + id);
                    insert.execute();
                }
            }
            try (Statement statement = oracle.connection().createStatement()) {
                for (int file = 0; file < DELETED_TABLE_FILES; file++) {
                    statement.execute("INSERT INTO lake.main.d SELECT i, i * 7 FROM range(" + file * 5 + ", " + (file + 1) * 5 + ") r(i)");
                }
            }
            oracle.connection().commit();
            oracle.connection().setAutoCommit(true);
            oracle.execute("DELETE FROM lake.main.d WHERE id % 5 = 2");
            return oracle;
        }
        catch (SQLException | RuntimeException e) {
            oracle.close();
            throw e;
        }
    }
}
