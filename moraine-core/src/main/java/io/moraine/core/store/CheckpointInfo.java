package io.moraine.core.store;

import java.time.Instant;
import java.util.Optional;

/**
 * A SlateDB checkpoint of a store: a fixed cut of its state that a {@link OpenMode#CHECKPOINT} open can pin to.
 *
 * @param id the checkpoint's UUID
 * @param manifestId the manifest version it pins
 * @param createdAt when it was created
 * @param expiresAt when it lapses, or empty when it holds until deleted
 * @param name the name given at creation, if any
 */
public record CheckpointInfo(String id, long manifestId, Instant createdAt, Optional<Instant> expiresAt, Optional<String> name) {}
