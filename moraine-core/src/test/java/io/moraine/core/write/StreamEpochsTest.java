package io.moraine.core.write;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.OptionalLong;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A streaming writer's epochs as snapshots record them, and the last one found again behind other writers' commits. */
class StreamEpochsTest
{
    private MoraineCatalog catalog;

    @BeforeEach
    void createLake()
    {
        catalog = MoraineCatalog.create(StoreUri.parse("memory://epochs-" + UUID.randomUUID()), NewCatalog.bootstrapped("/lake/data"));
    }

    @AfterEach
    void close()
    {
        catalog.close();
    }

    @Test
    void theExtraInfoNamesWriterAndEpochAndOtherTextIsNone()
    {
        String writer = "query \"7\" \\ tab\t";
        assertThat(StreamEpochs.parse(StreamEpochs.extraInfo(writer, 42))).contains(new StreamEpochs.WriterEpoch(writer, 42));
        assertThat(StreamEpochs.extraInfo("q", 3)).isEqualTo("{\"stream_writer_id\": \"q\", \"stream_epoch_id\": 3}");
        assertThat(StreamEpochs.parse(null)).isEmpty();
        assertThat(StreamEpochs.parse("{\"job\": 7}")).isEmpty();
        assertThat(StreamEpochs.parse("stream_writer_id without JSON")).isEmpty();
    }

    @Test
    void theLastEpochIsFoundBehindManyOtherCommitsAndEachWriterHasItsOwn()
    {
        assertThat(lastCommitted("a")).isEmpty();
        commit("s_a0", StreamEpochs.commitInfo("spark", "epoch 0", "a", 0));
        commit("s_b0", StreamEpochs.commitInfo("spark", "epoch 0", "b", 0));
        commit("s_a1", StreamEpochs.commitInfo("spark", "epoch 1", "a", 1));
        // more commits than one window of the backward search
        for (int i = 0; i < 300; i++) {
            commit("other_" + i, new CommitInfo("duckdb", null, i % 2 == 0 ? null : "{\"job\": " + i + "}"));
        }
        commit("s_b5", StreamEpochs.commitInfo("spark", "epoch 5", "b", 5));
        assertThat(lastCommitted("a")).hasValue(1);
        assertThat(lastCommitted("b")).hasValue(5);
        assertThat(lastCommitted("c")).isEmpty();
        WriteTransaction transaction = WriteTransaction.begin(catalog);
        assertThat(transaction.streamEpochCommitted("a", 0)).as("an older epoch is a replay").isTrue();
        assertThat(transaction.streamEpochCommitted("a", 1)).as("the last epoch is a replay").isTrue();
        assertThat(transaction.streamEpochCommitted("a", 2)).as("the next epoch is new").isFalse();
        assertThat(transaction.streamEpochCommitted("c", 0)).as("a writer that never committed").isFalse();
        transaction.rollback();
    }

    private OptionalLong lastCommitted(String writer)
    {
        WriteTransaction transaction = WriteTransaction.begin(catalog);
        try {
            return transaction.lastCommittedEpoch(writer);
        }
        finally {
            transaction.rollback();
        }
    }

    private void commit(String schema, CommitInfo info)
    {
        WriteTransaction.begin(catalog).commitInfo(info).createSchema(schema).commit();
    }
}
