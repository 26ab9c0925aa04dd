package io.moraine.duckdb.ext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A moraine lake and a DuckDB-file lake, each attached as {@code lake} on its own connection (a DuckDB transaction
 * writes to one database only), their metadata catalogs attached as {@code lake_meta} (a DuckDB-file lake lists its
 * metadata tables in duckdb_tables() only under a given name): statements run on both, queries must answer the same.
 */
record OracleLakes(Connection moraine, Connection oracle)
        implements AutoCloseable
{
    /** The two lakes under {@code directory}, both inlining up to {@code rowLimit} rows; attached again when they exist. */
    static OracleLakes open(Path directory, int rowLimit)
            throws Exception
    {
        Path data = directory.resolve("data");
        Path oracleData = directory.resolve("oracle-data");
        Files.createDirectories(data);
        Files.createDirectories(oracleData);
        Connection moraine = connection("ducklake:moraine:" + directory.resolve("store"), data, rowLimit);
        try {
            return new OracleLakes(moraine, connection("ducklake:" + directory.resolve("oracle.ducklake"), oracleData, rowLimit));
        }
        catch (Exception e) {
            moraine.close();
            throw e;
        }
    }

    private static Connection connection(String lake, Path data, int rowLimit)
            throws Exception
    {
        Connection connection = ExtensionConnections.open();
        try {
            execute(connection, "SET threads = 1"); // DuckLake's catalog cache race after writes (RFC 0006)
            execute(connection, "LOAD ducklake");
            execute(connection, "LOAD parquet");
            execute(connection, "ATTACH '" + lake + "' AS lake (DATA_PATH '" + data + "/', METADATA_CATALOG 'lake_meta', "
                    + "DATA_INLINING_ROW_LIMIT " + rowLimit + ")");
        }
        catch (Exception e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    void both(String statement)
            throws Exception
    {
        execute(oracle, statement);
        execute(moraine, statement);
    }

    /** The rows of {@code sql} on the moraine lake, asserted equal (in order) to the DuckDB-file lake's. */
    List<List<String>> same(String sql)
            throws Exception
    {
        List<List<String>> expected = query(oracle, sql);
        List<List<String>> actual = query(moraine, sql);
        assertThat(actual).as(sql).isEqualTo(expected);
        return actual;
    }

    @Override
    public void close()
            throws Exception
    {
        try (oracle) {
            moraine.close();
        }
    }
}
