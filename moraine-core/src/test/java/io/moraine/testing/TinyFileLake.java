package io.moraine.testing;

import java.nio.file.Path;
import java.sql.SQLException;

/**
 * A DuckLake lake of many tiny Parquet files, written by DuckDB with inlining off (what a table fed by many small
 * commits ends up as): table {@code t} holds {@code files} single-row files ({@code id} = 0..files-1, {@code v} = id * 3,
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
            // Partitioned by id, one INSERT writes a single-row file per row: as many files as single-row commits would
            // leave, in a few seconds instead of a minute.
            oracle.execute("ALTER TABLE lake.main.t SET PARTITIONED BY (id)");
            oracle.execute("INSERT INTO lake.main.t SELECT i, i * 3, 's' || i FROM range(" + files + ") r(i)");
            oracle.execute("CREATE TABLE lake.main.d (id BIGINT, v BIGINT)");
            for (int file = 0; file < DELETED_TABLE_FILES; file++) {
                oracle.execute("INSERT INTO lake.main.d SELECT i, i * 7 FROM range(" + file * 5 + ", " + (file + 1) * 5 + ") r(i)");
            }
            oracle.execute("DELETE FROM lake.main.d WHERE id % 5 = 2");
            return oracle;
        }
        catch (SQLException | RuntimeException e) {
            oracle.close();
            throw e;
        }
    }
}
