package io.moraine.core.tx;

import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Operations on DuckLake's inlined-data tables ({@code ducklake_inlined_data_<t>_<v>}) and inlined-delete tables
 * ({@code ducklake_inlined_delete_<t>}), translated at commit into inline-subspace records (RFC 0005, "Extension
 * surface"). Values are stored as DuckLake authored them; row_id, begin_snapshot and end_snapshot of inlined rows are
 * derived on read, never stored in the chunk body.
 */
public sealed interface InlineOperation
        extends StagedOperation
{
    long tableId();

    /**
     * CREATE TABLE ducklake_inlined_data_&lt;t&gt;_&lt;v&gt;: stores the version's user columns as an Arrow schema and
     * clears a deregistration marker. (The registry row of ducklake_inlined_data_tables is an ordinary row insert.)
     */
    record RegisterSchema(long tableId, long schemaVersion, Schema schema)
            implements InlineOperation
    {
        public RegisterSchema
        {
            requireNonNull(schema, "schema is null");
        }
    }

    /**
     * INSERT INTO ducklake_inlined_data_&lt;t&gt;_&lt;v&gt;: one chunk of rows with consecutive row ids from
     * {@code rowIdStart}, inserted at {@code beginSnapshot}; {@code body} is the chunk value already encoded at
     * staging ({@link io.moraine.core.inline.InlineArrow#encodeChunk}), so staging holds bytes, not Arrow buffers.
     */
    record InsertChunk(long tableId, long schemaVersion, long beginSnapshot, long rowIdStart, int rowCount, byte[] body)
            implements InlineOperation
    {
        public InsertChunk
        {
            requireNonNull(body, "body is null");
        }
    }

    /** UPDATE ducklake_inlined_data_&lt;t&gt;_&lt;v&gt; SET end_snapshot: a deletion event for each row id. */
    record EndRows(long tableId, List<Long> rowIds, long endSnapshot)
            implements InlineOperation
    {
        public EndRows
        {
            rowIds = List.copyOf(rowIds);
        }
    }

    /** INSERT INTO ducklake_inlined_delete_&lt;t&gt;: deletes of Parquet rows by position in data file {@code dataFileId}. */
    record DeleteFileRows(long tableId, long dataFileId, List<Long> positions, long beginSnapshot)
            implements InlineOperation
    {
        public DeleteFileRows
        {
            positions = List.copyOf(positions);
        }
    }

    /** DELETE FROM ducklake_inlined_delete_&lt;t&gt; (flush clean-up): each named record must exist. */
    record RemoveFileRowDeletes(long tableId, long dataFileId, List<Long> positions)
            implements InlineOperation
    {
        public RemoveFileRowDeletes
        {
            positions = List.copyOf(positions);
        }
    }

    /**
     * DELETE FROM ducklake_inlined_data_&lt;t&gt;_&lt;v&gt; WHERE begin_snapshot &lt;= flush (flush clean-up): removes the
     * flushed chunks, their locators, and the deletion events no surviving chunk needs. When the flush states the row
     * ids it wrote ({@code flushedRowIds}), the commit refuses, as corruption, a drain whose chunks hold other ones.
     */
    record Drain(long tableId, long schemaVersion, long flushSnapshot, java.util.Optional<io.moraine.core.inline.RowIdMultiset> flushedRowIds)
            implements InlineOperation {}

    /**
     * Selective DELETE FROM ducklake_inlined_data_&lt;t&gt;_&lt;v&gt; (snapshot expiry): removes exactly these row
     * versions, each named by (row_id, begin_snapshot); chunks keep their surviving rows as dense runs.
     */
    record ExpireVersions(long tableId, long schemaVersion, List<RowVersion> versions)
            implements InlineOperation
    {
        public ExpireVersions
        {
            versions = List.copyOf(versions);
        }
    }

    /** One version of an inlined row. */
    record RowVersion(long rowId, long beginSnapshot) {}

    /** DROP TABLE ducklake_inlined_data_&lt;t&gt;_&lt;v&gt; after a flush: keeps the schema, marks the version deregistered. */
    record Deregister(long tableId, long schemaVersion)
            implements InlineOperation {}

    /**
     * DROP TABLE ducklake_inlined_delete_&lt;t&gt; (clean-up after the user table was dropped and its snapshots
     * expired): every inlined file delete of the table goes, and the table with them.
     */
    record DropFileDeleteTable(long tableId)
            implements InlineOperation {}

    /** DROP TABLE of the user table: every inline record of the table goes. */
    record DropTable(long tableId)
            implements InlineOperation {}
}
