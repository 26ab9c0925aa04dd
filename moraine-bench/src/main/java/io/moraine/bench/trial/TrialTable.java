package io.moraine.bench.trial;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.catalog.SnapshotRows;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.CommitListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/**
 * The one table the trials write, {@code main.t (id BIGINT, batch BIGINT)}, table id 1, with its rows inlined up to
 * any size. Every commit's rows carry its batch number, and ids are {@code batch * 100 + i}, so that the rows of any
 * snapshot name the commit they came from.
 */
final class TrialTable
{
    static final long TABLE_ID = 1;
    static final String QUALIFIED_NAME = "main.t";
    static final String SCHEMA_NAME = "main";
    static final String TABLE_NAME = "t";
    static final int MAX_ROWS_PER_BATCH = 100;
    static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null),
            new Field("batch", FieldType.nullable(new ArrowType.Int(64, true)), null)));

    private TrialTable() {}

    static long rowId(long batch, int i)
    {
        return batch * MAX_ROWS_PER_BATCH + i;
    }

    static long batchOf(long id)
    {
        return Math.floorDiv(id, MAX_ROWS_PER_BATCH);
    }

    /** Creates the catalog with the table at snapshot 1: what DuckDB's CREATE TABLE writes. */
    static void create(StoreUri store, StoreOptions options, String dataPath)
    {
        try (MoraineCatalog catalog = MoraineCatalog.create(store, NewCatalog.bootstrapped(dataPath), options, List.of(), CommitListener.NONE)) {
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
            catalog.begin(0)
                    .insert(Row.of(TableKind.SNAPSHOT, 1L, now, 1L, 2L, 0L))
                    .insert(SnapshotRows.changes(1, "created_table:\"main\".\"t\""))
                    .insert(Row.of(TableKind.TABLE, TABLE_ID, UUID.randomUUID(), 1L, null, 0L, "t", "t/", true))
                    .insert(column(1, "id"))
                    .insert(column(2, "batch"))
                    .insert(Row.of(TableKind.TABLE_STATS, TABLE_ID, 0L, 0L, 0L))
                    .insert(Row.of(TableKind.SCHEMA_VERSIONS, 1L, 1L, TABLE_ID))
                    .registerInlinedTable(TABLE_ID, 1, SCHEMA)
                    .commit();
        }
    }

    private static Row column(long id, String name)
    {
        return Row.of(TableKind.COLUMN, id, 1L, null, TABLE_ID, id, name, "int64", null, "NULL", true, null, "literal", "duckdb");
    }

    /** The Arrow batch of {@code count} rows of {@code batch}. */
    static VectorSchemaRoot rows(BufferAllocator allocator, long batch, int count)
    {
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        root.allocateNew();
        BigIntVector ids = (BigIntVector) root.getVector("id");
        BigIntVector batches = (BigIntVector) root.getVector("batch");
        for (int i = 0; i < count; i++) {
            ids.setSafe(i, rowId(batch, i));
            batches.setSafe(i, batch);
        }
        root.setRowCount(count);
        return root;
    }
}
