package io.moraine.core.write;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/** Time-ordered UUIDs (version 7), as DuckLake names its schemas, tables and files. */
public final class Uuids
{
    private Uuids() {}

    public static UUID v7()
    {
        long millis = System.currentTimeMillis();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (millis << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low);
    }
}
