package io.moraine.core.store;

import io.slatedb.uniffi.Db;
import io.slatedb.uniffi.DbBuilder;
import io.slatedb.uniffi.FlushOptions;
import io.slatedb.uniffi.FlushType;
import io.slatedb.uniffi.Settings;
import io.slatedb.uniffi.WriteBatch;

import java.util.Random;

/**
 * A child process for {@link WriterAfterCrashMidCompactionTest}: a SlateDB writer with moraine's settings that writes
 * L0 SSTs of incompressible data as fast as it can, while its compactions read their inputs in small requests (so
 * that they run long), until it is killed.
 */
final class CompactingWriter
{
    static final int VALUES_PER_SST = 16;
    static final int VALUE_BYTES = 256 << 10;

    private CompactingWriter() {}

    public static void main(String[] args)
            throws Exception
    {
        StoreUri uri = StoreUri.parse(args[0]);
        try (DbBuilder builder = new DbBuilder(uri.dbPath(), ObjectStores.resolve(uri, StoreOptions.DEFAULTS)); Settings settings = Settings._default()) {
            SlateStore.applyWriterSettings(settings);
            settings.set("compactor_options.worker.bytes_to_fetch", "4096");
            settings.set("compactor_options.worker.max_fetch_tasks", "1");
            settings.set("compactor_options.worker.max_subcompactions", "1");
            builder.withSettings(settings);
            Db db = builder.build().get();
            Random random = new Random(7);
            byte[] value = new byte[VALUE_BYTES];
            for (long sst = 0; ; sst++) {
                try (WriteBatch batch = new WriteBatch()) {
                    for (int i = 0; i < VALUES_PER_SST; i++) {
                        random.nextBytes(value);
                        batch.put("k%08d-%02d".formatted(sst, i).getBytes(java.nio.charset.StandardCharsets.UTF_8), value);
                    }
                    db.write(batch).get();
                }
                db.flushWithOptions(new FlushOptions(FlushType.MEM_TABLE)).get();
                System.out.println("L0 " + sst);
            }
        }
    }
}
