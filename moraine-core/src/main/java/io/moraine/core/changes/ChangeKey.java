package io.moraine.core.changes;

/** What pairs a deletion with an insertion into an update: the same row id in the same snapshot. */
public record ChangeKey(long snapshotId, long rowId) {}
