package io.moraine.core.verify;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.store.OpenMode;
import io.moraine.core.tx.StagedTransaction;

import java.util.List;
import java.util.OptionalLong;

/**
 * Removes the inline records of tables no snapshot can see any more ({@code INLINE_ORPHAN}): left by a store written
 * before a table's inline records went with the expiry of its last {@code ducklake_table} row. Table ids are never
 * reused, so such records can never be read again. One commit that adds no snapshot; nothing else is touched.
 */
public final class InlineOrphanRepair
{
    private InlineOrphanRepair() {}

    /** Removes every orphaned table's inline records and returns the tables' ids (empty when there were none). */
    public static List<Long> run(MoraineCatalog catalog)
    {
        if (catalog.mode() != OpenMode.READ_WRITE) {
            throw new InvalidArgumentException("repairing store " + catalog.uri() + " writes to it: open it READ_WRITE (bin/moraine verify --repair does)");
        }
        List<Long> orphans;
        long head;
        try (CatalogSnapshot snapshot = catalog.latest()) {
            head = snapshot.id();
            Findings ignored = new Findings();
            CatalogRowChecks rows = new CatalogRowChecks(snapshot.reader(), ignored, OptionalLong.of(head));
            rows.run();
            InlineChecks inline = new InlineChecks(snapshot.reader(), ignored, rows, OptionalLong.of(head));
            inline.run();
            orphans = inline.orphanTables();
        }
        if (!orphans.isEmpty()) {
            StagedTransaction transaction = catalog.begin(head);
            orphans.forEach(transaction::dropInlined);
            transaction.commit();
        }
        return orphans;
    }
}
