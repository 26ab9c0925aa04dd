package io.moraine.examples.changes;

import io.moraine.testing.DuckLakeOracle;

import java.util.List;

/**
 * The change feed of the whole oracle workload: flushed (backdated) and merged files filtered per row, rewritten files
 * (reported by DuckLake as update pairs), an expired snapshot and a dropped table.
 */
class ChangeFeedAfterWorkloadTest
        extends ChangeFeedMatchesDuckLake
{
    @Override
    List<String> steps()
    {
        return DuckLakeOracle.WORKLOAD;
    }
}
