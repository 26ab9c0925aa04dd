package io.moraine.core.write.files;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/** The names DuckLake gives the files it writes: {@code ducklake-<uuidv7>.parquet} ({@code FILENAME_PATTERN}, reference writes §3.1). */
public final class DataFileNames
{
    private DataFileNames() {}

    /** A new data file name, {@code ducklake-<uuidv7>.parquet}. */
    public static String dataFileName()
    {
        return "ducklake-" + uuidV7() + ".parquet";
    }

    /** A new delete file name, {@code ducklake-<uuidv7>-delete.parquet}. */
    public static String deleteFileName()
    {
        return "ducklake-" + uuidV7() + "-delete.parquet";
    }

    /** A time-ordered UUID (version 7, RFC 9562): 48 bits of Unix milliseconds, then random bits. */
    public static UUID uuidV7()
    {
        long millis = System.currentTimeMillis();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (millis << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low);
    }
}
