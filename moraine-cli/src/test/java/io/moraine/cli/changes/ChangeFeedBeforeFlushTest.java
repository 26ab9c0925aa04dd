package io.moraine.cli.changes;

import io.moraine.testing.DuckLakeOracle;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The change feed of the oracle workload imported just before its flush: inlined inserts, updates and deletes are read from the catalog. */
class ChangeFeedBeforeFlushTest
        extends ChangeFeedMatchesDuckLake
{
    @Override
    List<String> steps()
    {
        return DuckLakeOracle.WORKLOAD_BEFORE_FLUSH;
    }

    @Override
    void assertSources(Map<String, Integer> sources)
    {
        assertThat(sources).containsKeys("file insertions", "delete file", "inlined file deletes", "inlined INSERTION", "inlined DELETION");
    }
}
