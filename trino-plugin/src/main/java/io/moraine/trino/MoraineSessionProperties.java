package io.moraine.trino;

import io.airlift.units.Duration;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.session.PropertyMetadata;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.INVALID_SESSION_PROPERTY;
import static io.trino.spi.type.VarcharType.VARCHAR;

/** Session properties: which snapshot a session reads when its queries name none, the dynamic-filter wait, statistics and tiny-file copies on or off. */
final class MoraineSessionProperties
{
    static final String READ_SNAPSHOT_ID = "read_snapshot_id";
    static final String READ_SNAPSHOT_TIMESTAMP = "read_snapshot_timestamp";
    static final String DYNAMIC_FILTERING_WAIT_TIMEOUT = "dynamic_filtering_wait_timeout";
    static final String STATISTICS_ENABLED = "statistics_enabled";
    static final String TINY_FILES_ENABLED = "tiny_files_enabled";

    private MoraineSessionProperties() {}

    static List<PropertyMetadata<?>> properties(MoraineConfig config)
    {
        return List.of(
                new PropertyMetadata<>(DYNAMIC_FILTERING_WAIT_TIMEOUT, "How long split planning may wait for a join's dynamic filters, which then "
                        + "prune whole data files (a duration such as 1s or 500ms)", VARCHAR, Duration.class, config.getDynamicFilteringWaitTimeout(), false,
                        value -> parseDuration((String) value), Duration::toString),
                PropertyMetadata.longProperty(READ_SNAPSHOT_ID, "Snapshot to read when a query names none (overrides the catalog default)", null, false),
                PropertyMetadata.stringProperty(READ_SNAPSHOT_TIMESTAMP, "Read the snapshot current at this instant (ISO-8601, e.g. "
                        + "2026-11-29T12:00:00Z) when a query names none", null, false),
                PropertyMetadata.booleanProperty(STATISTICS_ENABLED, "Report table statistics to the cost-based optimizer", config.isTableStatisticsEnabled(), false),
                PropertyMetadata.booleanProperty(TINY_FILES_ENABLED, "Read tiny files from the catalog's copies of them (false: open the files)",
                        config.isTinyFilesEnabled(), false));
    }

    static Duration dynamicFilteringWaitTimeout(ConnectorSession session)
    {
        return session.getProperty(DYNAMIC_FILTERING_WAIT_TIMEOUT, Duration.class);
    }

    private static Duration parseDuration(String text)
    {
        try {
            return Duration.valueOf(text);
        }
        catch (IllegalArgumentException e) {
            throw new TrinoException(INVALID_SESSION_PROPERTY, DYNAMIC_FILTERING_WAIT_TIMEOUT + " takes a duration such as 1s or 500ms, not '" + text + "'", e);
        }
    }

    static boolean statisticsEnabled(ConnectorSession session)
    {
        return session.getProperty(STATISTICS_ENABLED, Boolean.class);
    }

    static boolean tinyFilesEnabled(ConnectorSession session)
    {
        return session.getProperty(TINY_FILES_ENABLED, Boolean.class);
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
