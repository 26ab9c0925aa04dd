package io.moraine.core.inline.read;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One window of inlined rows from one schema version: the projected user columns of that version followed by the
 * virtual columns {@code row_id}, {@code begin_snapshot} and {@code end_snapshot}. Valid until the scan's next window.
 */
public record InlineBatch(long schemaVersion, VectorSchemaRoot root) {}
