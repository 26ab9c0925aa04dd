package io.moraine.trino;

import io.moraine.core.scan.ColumnDomain;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.HiddenColumn;
import io.moraine.core.scan.RowIdentityPruning;
import io.trino.spi.predicate.TupleDomain;

/**
 * A {@code $row_id} predicate against one data file once its footer says whether it embeds row ids: planning keeps files
 * the catalog cannot prove positional, and a positional one is ruled out here by its row-id range without reading rows.
 */
final class RowIdPredicate
{
    private RowIdPredicate() {}

    static boolean mayMatch(DataFileTask file, TupleDomain<MoraineColumnHandle> predicate, boolean embedsRowIds)
    {
        if (predicate.isNone()) {
            return false;
        }
        ColumnDomain rowIds = TrinoFilters.toScanFilter(predicate).domains().get(HiddenColumn.ROW_ID.columnId());
        return rowIds == null || RowIdentityPruning.rowIdsMayMatch(file, rowIds, embedsRowIds);
    }
}
