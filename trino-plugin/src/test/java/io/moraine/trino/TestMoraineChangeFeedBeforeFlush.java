package io.moraine.trino;

import io.moraine.testing.DuckLakeOracle;

import java.util.List;

/** The change-feed functions on the oracle workload imported just before its flush: inlined inserts, updates and deletes. */
class TestMoraineChangeFeedBeforeFlush
        extends ChangeFeedFunctionsMatchDuckLake
{
    @Override
    List<String> steps()
    {
        return DuckLakeOracle.WORKLOAD_BEFORE_FLUSH;
    }
}
