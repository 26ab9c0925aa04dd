package io.moraine.duckdb.ext;

import java.util.List;

/**
 * One step of a write-oracle workload, given twice: as DuckDB SQL run on the DuckDB-file lake (attached as
 * {@code lake}; write {@code BEGIN} ... {@code COMMIT} for several statements in one transaction), and as what the core
 * does on the moraine store. The core side is either a {@link CoreAction} (one {@code WriteTransaction}, committed by
 * the harness) or, for what the core has no call for yet (options, say), the same SQL run by DuckDB on the moraine lake.
 */
record WriteOracleStep(String name, List<String> duckDbSql, CoreAction core)
{
    /** What the core does for a step, through {@link WriteOracleCore} (the transaction and the row helpers). */
    @FunctionalInterface
    interface CoreAction
    {
        void apply(WriteOracleCore core)
                throws Exception;
    }

    WriteOracleStep
    {
        duckDbSql = List.copyOf(duckDbSql);
    }

    /** A step the core takes through its write API. */
    static WriteOracleStep step(String name, CoreAction core, String... duckDbSql)
    {
        return new WriteOracleStep(name, List.of(duckDbSql), core);
    }

    /** A step both lakes take through DuckDB (the moraine one through {@code ducklake:moraine:}). */
    static WriteOracleStep duckDbOnBoth(String name, String... duckDbSql)
    {
        return new WriteOracleStep(name, List.of(duckDbSql), null);
    }

    boolean throughCore()
    {
        return core != null;
    }
}
