package io.moraine.trino;

import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.session.PropertyMetadata;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.INVALID_SESSION_PROPERTY;

/** Session properties: which snapshot a session reads when its queries name none. */
final class MoraineSessionProperties
{
    static final String READ_SNAPSHOT_ID = "read_snapshot_id";
    static final String READ_SNAPSHOT_TIMESTAMP = "read_snapshot_timestamp";

    private MoraineSessionProperties() {}

    static List<PropertyMetadata<?>> properties()
    {
        return List.of(
                PropertyMetadata.longProperty(READ_SNAPSHOT_ID, "Snapshot to read when a query names none (overrides the catalog default)", null, false),
                PropertyMetadata.stringProperty(READ_SNAPSHOT_TIMESTAMP, "Read the snapshot current at this instant (ISO-8601, e.g. "
                        + "2026-11-29T12:00:00Z) when a query names none", null, false));
    }

    static Optional<Long> snapshotId(ConnectorSession session)
    {
        return Optional.ofNullable(session.getProperty(READ_SNAPSHOT_ID, Long.class));
    }

    static Optional<Instant> snapshotTimestamp(ConnectorSession session)
    {
        String text = session.getProperty(READ_SNAPSHOT_TIMESTAMP, String.class);
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(text));
        }
        catch (DateTimeParseException e) {
            throw new TrinoException(INVALID_SESSION_PROPERTY, READ_SNAPSHOT_TIMESTAMP + " takes an ISO-8601 instant such as "
                    + "2026-11-29T12:00:00Z, not '" + text + "'", e);
        }
    }
}
