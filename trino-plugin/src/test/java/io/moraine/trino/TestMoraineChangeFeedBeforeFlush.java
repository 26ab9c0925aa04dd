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
        return DuckLakeOracle.WORKLOAD.subList(0, DuckLakeOracle.WORKLOAD.indexOf("CALL ducklake_flush_inlined_data('lake')"));
    }
}
