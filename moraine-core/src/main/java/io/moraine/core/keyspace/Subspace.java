package io.moraine.core.keyspace;

/**
 * The leading byte of every store key. Each subspace is one contiguous key range; docs/format.md describes the
 * layout of each.
 */
public enum Subspace
{
    /** Store-wide records: format version, head snapshot, store facts. */
    SYSTEM(0x00),
    /** Current rows: versioned rows whose end_snapshot is NULL, and every row of unversioned kinds. */
    CURRENT(0x01),
    /** History rows: versioned rows whose end_snapshot is set. */
    HISTORY(0x02),
    /** Inlined data (RFC 0005): schemas, insert chunks, tombstones, locators. */
    INLINE(0x03),
    /** Primary-key index for kinds whose row key does not start with their declared primary key. */
    PRIMARY_KEY(0x04),
    /** Index of ducklake_snapshot by (snapshot_time, snapshot_id), for time travel by timestamp. */
    SNAPSHOT_TIME(0x05),
    /** Index of data and delete files by the snapshots their changes lie in, for change feeds (FileChangeKeys). */
    FILE_CHANGES(0x06),
    /** Copies of tiny data and delete files' bytes, by (table, kind, file id), served to readers (TinyFileKeys). */
    TINY_FILES(0x07);

    private final byte tag;

    Subspace(int tag)
    {
        this.tag = (byte) tag;
    }

    public byte tag()
    {
        return tag;
    }

    /** The first key after every key of this subspace. */
    public byte[] end()
    {
        return new byte[] {(byte) (tag + 1)};
    }

    public byte[] start()
    {
        return new byte[] {tag};
    }
}
