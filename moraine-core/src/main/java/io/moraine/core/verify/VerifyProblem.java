package io.moraine.core.verify;

import static java.util.Objects.requireNonNull;

/**
 * One broken invariant of a store, found by {@link StoreVerifier}: which check failed, the record it concerns (a
 * catalog row by its key columns, an inline record, a file) and what is wrong with it.
 */
public record VerifyProblem(Check check, String where, String detail)
{
    /** The invariants {@link StoreVerifier} checks (docs/format.md describes each). */
    public enum Check
    {
        /** The format record is missing, does not decode, or names a format this binary does not read. */
        FORMAT,
        /** The store-facts record (ducklake_metadata's version, data_path, ...) is missing or does not decode. */
        STORE_FACTS,
        /** The head record is missing or does not decode, its snapshot row is missing, or it is not the newest snapshot. */
        HEAD,
        /** An id counter of the head snapshot (next_catalog_id, next_file_id) or a table's next_row_id is not past an id in use, or a counter went down. */
        COUNTER,
        /** A key that no record kind uses. */
        UNKNOWN_KEY,
        /** A catalog row that does not decode, or whose key is not the one its cells give. */
        ROW_ENCODING,
        /** A versioned row in the wrong subspace for its end_snapshot (current rows are open, history rows ended), or an unversioned row in history. */
        ROW_PLACEMENT,
        /** A row that begins or ends after the head snapshot. */
        SNAPSHOT_RANGE,
        /** A live row that names a row that is not there (its table, schema or data file). */
        DANGLING_REFERENCE,
        /** Two live versions of one object. */
        DUPLICATE_LIVE_ROW,
        /** An index entry (primary key, snapshot time) without its row, or a row without its index entry. */
        INDEX,
        /** An inlined table's schema record is missing, does not decode, or refers to a version that holds none. */
        INLINE_SCHEMA,
        /** An insert chunk of an unregistered inlined table, or one that does not decode against its schema. */
        INLINE_CHUNK,
        /** A chunk without its locator, or a locator that does not match a chunk. */
        INLINE_LOCATOR,
        /** Another inline record (tombstone, file delete, marker) that is malformed or names what is not there. */
        INLINE_RECORD,
        /**
         * Inline records of a table that no snapshot can see any more: no ducklake_table row of it lives at a snapshot
         * that exists (left behind by a DROP TABLE whose expiry did not take them).
         */
        INLINE_ORPHAN,
        /** A tiny-file copy that does not decode, is not whole, has no file row, or differs from its row or (with file checks) its file. */
        TINY_FILE,
        /** A data or delete file the catalog references is missing from the data path (only with file checks). */
        MISSING_FILE,
        /** A referenced file whose size differs from the catalog's file_size_bytes (only with file checks). */
        FILE_SIZE
    }

    public VerifyProblem
    {
        requireNonNull(check, "check is null");
        requireNonNull(where, "where is null");
        requireNonNull(detail, "detail is null");
    }

    /** The problem on one line: {@code CHECK where: detail}. */
    public String line()
    {
        return check + " " + where + ": " + detail.replace('\n', ' ');
    }

    @Override
    public String toString()
    {
        return line();
    }
}
