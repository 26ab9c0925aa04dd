package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;

import static java.util.Objects.requireNonNull;

/**
 * A resolved change-feed call, as the analysis of {@link ChangeFeedFunction} hands it to the planner: the scan it
 * becomes ({@code MoraineMetadata.applyTableFunction}), with every column and no predicate yet.
 */
public record ChangeFeedFunctionHandle(ChangeFeedTableHandle scan)
        implements ConnectorTableFunctionHandle
{
    @JsonCreator
    public ChangeFeedFunctionHandle(@JsonProperty("scan") ChangeFeedTableHandle scan)
    {
        this.scan = requireNonNull(scan, "scan is null");
    }

    @Override
    @JsonProperty
    public ChangeFeedTableHandle scan()
    {
        return scan;
    }
}
