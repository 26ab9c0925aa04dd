package io.moraine.trino;

import io.trino.spi.connector.Assignment;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.Variable;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Projection and predicate pushdown into a change-feed scan. Only the projected columns are read; the predicate's
 * domains on {@code snapshot_id} and on the table's columns go into the handle for the core's pruning
 * ({@code ChangePruning}), and Trino keeps the whole predicate to apply to the rows after their change type is known.
 */
final class ChangeFeedPushdown
{
    private ChangeFeedPushdown() {}

    static Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(ChangeFeedTableHandle table, Constraint constraint)
    {
        TupleDomain<ChangeFeedColumnHandle> usable = constraint.getSummary()
                .transformKeys(ChangeFeedColumnHandle.class::cast)
                .filter((column, domain) -> column.field() == ChangeFeedColumnHandle.Field.SNAPSHOT_ID || column.field() == ChangeFeedColumnHandle.Field.TABLE_COLUMN);
        TupleDomain<ChangeFeedColumnHandle> combined = table.constraint().intersect(usable);
        if (combined.equals(table.constraint())) {
            return Optional.empty();
        }
        return Optional.of(new ConstraintApplicationResult<>(table.withConstraint(combined), constraint.getSummary(), constraint.getExpression(), false));
    }

    /** Records the columns read when every projection is a column; dereferences and expressions are left to Trino. */
    static Optional<ProjectionApplicationResult<ConnectorTableHandle>> applyProjection(ChangeFeedTableHandle table, List<ConnectorExpression> projections,
            Map<String, ColumnHandle> assignments)
    {
        if (!projections.stream().allMatch(Variable.class::isInstance)) {
            return Optional.empty();
        }
        Set<ChangeFeedColumnHandle> read = new LinkedHashSet<>();
        for (ConnectorExpression projection : projections) {
            read.add((ChangeFeedColumnHandle) assignments.get(((Variable) projection).getName()));
        }
        List<ChangeFeedColumnHandle> projected = new ArrayList<>(read);
        if (table.projection().map(current -> Set.copyOf(current).equals(read)).orElse(false)) {
            return Optional.empty();
        }
        List<Assignment> newAssignments = new ArrayList<>();
        for (ConnectorExpression projection : projections) {
            String name = ((Variable) projection).getName();
            newAssignments.add(new Assignment(name, assignments.get(name), projection.getType()));
        }
        return Optional.of(new ProjectionApplicationResult<>(table.withProjection(projected), projections, newAssignments, false));
    }
}
