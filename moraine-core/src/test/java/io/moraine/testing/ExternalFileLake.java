package io.moraine.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A DuckLake lake whose one data file the catalog registers with an absolute path outside the data path (the file
 * DuckLake wrote, copied out and its row pointed there), for tests of where files may live.
 */
public final class ExternalFileLake
{
    private ExternalFileLake() {}

    /** Creates {@code lake.main.t} with {@code rows} rows in one file at {@code external}/e.parquet; returns that path. */
    public static Path create(DuckLakeOracle oracle, Path external, int rows)
            throws Exception
    {
        oracle.execute("CREATE TABLE lake.main.t (id INTEGER)");
        oracle.execute("INSERT INTO lake.main.t SELECT i::INTEGER FROM range(" + rows + ") t(i)");
        oracle.execute("CALL ducklake_flush_inlined_data('lake')");
        String written = oracle.query("SELECT data_file FROM ducklake_list_files('lake', 't')").getFirst().getFirst();
        Path target = Files.createDirectories(external).resolve("e.parquet");
        Files.copy(Path.of(written), target);
        oracle.execute("UPDATE __ducklake_metadata_lake.ducklake_data_file SET path = '" + target + "', path_is_relative = false");
        Files.delete(Path.of(written));
        return target;
    }
}
