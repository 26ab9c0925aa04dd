package io.moraine.bench.trial;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.ReaderFreshness;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.tx.CommitListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The object-store requests of a read-only catalog on S3 (S3Proxy), counted by a {@link FaultProxy} that injects
 * nothing and sits between the reader and S3Proxy only (the writer reaches S3Proxy directly): an on-demand reader makes
 * none while idle, a polling one makes about ten a tick; a read after a commit sees it.
 */
class IdleReaderRequestsTest
{
    private static final Duration IDLE = Duration.ofSeconds(3);

    @TempDir
    Path temp;

    @Test
    void anIdleOnDemandReaderMakesNoRequestsAndAPollingOneDoes()
            throws Exception
    {
        try (TrialStore store = TrialStore.s3(temp); FaultProxy counter = new FaultProxy(store.port(), 0, 0, Duration.ZERO, Duration.ZERO)) {
            StoreOptions direct = TrialStore.options(store.uri(), Duration.ofSeconds(60), store.endpoint());
            StoreOptions counted = TrialStore.options(store.uri(), Duration.ofSeconds(60), counter.endpoint());
            try (MoraineCatalog writer = MoraineCatalog.create(store.uri(), NewCatalog.bootstrapped(temp.resolve("data") + "/"), direct, List.of(), CommitListener.NONE);
                    MoraineCatalog reader = MoraineCatalog.open(store.uri(), OpenMode.READ_ONLY, counted)) {
                assertThat(headOf(reader)).isZero();

                counter.resetCounts();
                Thread.sleep(IDLE.toMillis());
                Map<String, Long> idle = counter.requestCounts();
                System.out.println("on-demand reader, idle " + IDLE.toSeconds() + " s: " + idle);
                assertThat(total(idle)).as("requests of an idle on-demand reader: " + idle).isZero();

                counter.resetCounts();
                assertThat(headOf(reader)).isZero();
                Map<String, Long> unchanged = counter.requestCounts();
                System.out.println("on-demand reader, a query with nothing committed: " + unchanged);
                assertThat(total(unchanged)).as("a check that finds nothing new: " + unchanged).isPositive().isLessThanOrEqualTo(12);

                commitSnapshot(writer, 1);
                counter.resetCounts();
                assertThat(headOf(reader)).as("the commit, seen by the next query").isEqualTo(1);
                System.out.println("on-demand reader, the query after a commit: " + counter.requestCounts());

                try (MoraineCatalog polling = MoraineCatalog.open(store.uri(), OpenMode.READ_ONLY,
                        counted.withFreshness(ReaderFreshness.polling()).withManifestPollInterval(Duration.ofMillis(100)))) {
                    assertThat(headOf(polling)).isEqualTo(1);
                    counter.resetCounts();
                    Thread.sleep(IDLE.toMillis());
                    Map<String, Long> polled = counter.requestCounts();
                    System.out.println("polling reader (100 ms), idle " + IDLE.toSeconds() + " s: " + polled);
                    // The test can fail: the counter sees a polling reader's requests.
                    assertThat(total(polled)).as("requests of an idle polling reader").isGreaterThan(IDLE.toSeconds() * 5);
                }
            }
        }
    }

    private static long headOf(MoraineCatalog catalog)
    {
        try (CatalogSnapshot latest = catalog.latest()) {
            return latest.id();
        }
    }

    private static long total(Map<String, Long> counts)
    {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static void commitSnapshot(MoraineCatalog writer, long id)
    {
        writer.begin().insert(Row.of(TableKind.SNAPSHOT, id, Instant.now().truncatedTo(ChronoUnit.MICROS), 0L, 1L, 0L))
                .insert(Row.of(TableKind.SNAPSHOT_CHANGES, id, "altered_table:1", null, null, null))
                .commit();
    }
}
