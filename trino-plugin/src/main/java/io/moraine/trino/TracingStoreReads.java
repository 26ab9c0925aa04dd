package io.moraine.trino;

import io.moraine.core.keyspace.KeyNames;
import io.moraine.core.store.StoreReadListener;
import io.opentelemetry.api.trace.Tracer;

/**
 * Records each catalog read as an OpenTelemetry span ({@code MoraineStore.get} / {@code MoraineStore.scan}) with the
 * record kind it addresses, as Trino's file systems trace their reads; tests count them to pin a query's store I/O.
 */
final class TracingStoreReads
        implements StoreReadListener
{
    static final String GET = "MoraineStore.get";
    static final String SCAN = "MoraineStore.scan";
    static final String RECORD_KIND = "moraine.record_kind";

    private final Tracer tracer;

    TracingStoreReads(Tracer tracer)
    {
        this.tracer = tracer;
    }

    @Override
    public void pointRead(byte[] key)
    {
        tracer.spanBuilder(GET).setAttribute(RECORD_KIND, KeyNames.describe(key)).startSpan().end();
    }

    @Override
    public void rangeScan(byte[] start, byte[] end)
    {
        tracer.spanBuilder(SCAN).setAttribute(RECORD_KIND, KeyNames.describe(start)).startSpan().end();
    }
}
