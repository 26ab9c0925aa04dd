package io.moraine.core.inline;

/** Identifies one inline insert chunk: the rows one commit inlined into one schema version of one table. */
public record ChunkId(long tableId, long schemaVersion, long beginSnapshot, long chunkSeq) {}
