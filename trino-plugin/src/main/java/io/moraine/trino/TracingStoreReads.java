package io.moraine.trino;

import io.moraine.core.keyspace.KeyNames;
import io.moraine.core.store.StoreReadListener;
import io.opentelemetry.api.trace.Span;
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
        record(GET, key);
    }

    @Override
    public void rangeScan(byte[] start, byte[] end)
    {
        record(SCAN, start);
    }

    /** Names the record kind only when the span is recorded: with tracing off, a read costs a no-op span. */
    private void record(String operation, byte[] key)
    {
        Span span = tracer.spanBuilder(operation).startSpan();
        if (span.isRecording()) {
            span.setAttribute(RECORD_KIND, KeyNames.describe(key));
        }
        span.end();
    }
}
