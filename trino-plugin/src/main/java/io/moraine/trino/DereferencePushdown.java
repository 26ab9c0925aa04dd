package io.moraine.trino;

import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import io.trino.spi.connector.Assignment;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.expression.Call;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.FieldDereference;
import io.trino.spi.expression.Variable;
import io.trino.spi.type.RowType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Pushes chains of struct-field dereferences ({@code s.a}, {@code s.b.c}) into column handles, as Trino's Iceberg
 * connector does, so a scan reads only those fields' leaves. A field is identified by its path of field ids, so a field
 * renamed since a file was written is still found there. Dereferences of anything but a column or a struct field
 * (an array element's field, a map value's) stay in Trino.
 */
final class DereferencePushdown
{
    private DereferencePushdown() {}

    /**
     * Also records the columns the scan then reads in the handle ({@link MoraineTableHandle#projection()}), for the
     * coordinator to read the inlined rows' columns by.
     *
     * @param columns the table's columns at the handle's snapshot, by id; read only when a projection dereferences one
     * @return empty when no projection dereferences a column and the handle already records the columns read
     */
    static Optional<ProjectionApplicationResult<ConnectorTableHandle>> apply(MoraineTableHandle table, List<ConnectorExpression> projections,
            Map<String, ColumnHandle> assignments, Supplier<Map<Long, TableColumn>> columns)
    {
        Set<ConnectorExpression> chains = new LinkedHashSet<>();
        projections.forEach(projection -> collectChains(projection, chains));
        Map<ConnectorExpression, Variable> replacements = new LinkedHashMap<>();
        Map<String, Assignment> newAssignments = new LinkedHashMap<>();
        Map<Long, TableColumn> columnsById = null;
        for (ConnectorExpression chain : chains) {
            if (chain instanceof Variable variable) {
                ColumnHandle handle = assignments.get(variable.getName());
                newAssignments.putIfAbsent(variable.getName(), new Assignment(variable.getName(), handle, variable.getType()));
                continue;
            }
            if (columnsById == null) {
                columnsById = columns.get();
            }
            List<Integer> fieldIndexes = new ArrayList<>();
            Variable base = baseOf(chain, fieldIndexes);
            MoraineColumnHandle column = (MoraineColumnHandle) assignments.get(base.getName());
            MoraineColumnHandle field = dereference(column, columnsById.get(column.leafColumnId()), fieldIndexes, chain);
            String name = base.getName() + "#" + String.join(".", field.path().stream().map(String::valueOf).toList());
            newAssignments.putIfAbsent(name, new Assignment(name, field, chain.getType()));
            replacements.put(chain, new Variable(name, chain.getType()));
        }
        List<MoraineColumnHandle> read = newAssignments.values().stream().map(assignment -> (MoraineColumnHandle) assignment.getColumn()).distinct().toList();
        if (replacements.isEmpty() && table.projection().map(current -> Set.copyOf(current).equals(Set.copyOf(read))).orElse(false)) {
            return Optional.empty();
        }
        List<ConnectorExpression> newProjections = projections.stream().map(projection -> replace(projection, replacements)).toList();
        return Optional.of(new ProjectionApplicationResult<>(table.withProjection(read), newProjections, List.copyOf(newAssignments.values()), false));
    }

    /** The maximal variables and dereference chains on variables in an expression. */
    private static void collectChains(ConnectorExpression expression, Set<ConnectorExpression> chains)
    {
        if (isChain(expression)) {
            chains.add(expression);
            return;
        }
        expression.getChildren().forEach(child -> collectChains(child, chains));
    }

    private static boolean isChain(ConnectorExpression expression)
    {
        return expression instanceof Variable
                || expression instanceof FieldDereference dereference && dereference.getTarget().getType() instanceof RowType && isChain(dereference.getTarget());
    }

    /** The variable a chain starts from; {@code fieldIndexes} receives the field indexes from it outwards. */
    private static Variable baseOf(ConnectorExpression chain, List<Integer> fieldIndexes)
    {
        if (chain instanceof FieldDereference dereference) {
            Variable base = baseOf(dereference.getTarget(), fieldIndexes);
            fieldIndexes.add(dereference.getField());
            return base;
        }
        return (Variable) chain;
    }

    /** The handle of the field the indexes reach from {@code column} (which may already be a field itself). */
    private static MoraineColumnHandle dereference(MoraineColumnHandle column, TableColumn start, List<Integer> fieldIndexes, ConnectorExpression chain)
    {
        List<Long> path = new ArrayList<>(column.path());
        List<String> names = new ArrayList<>(List.of(column.name()));
        TableColumn current = start;
        for (int index : fieldIndexes) {
            if (!(current.type() instanceof DuckLakeType.StructOf struct)) {
                throw new IllegalStateException("dereference of " + chain + " reaches " + current.name() + ", which is not a struct");
            }
            current = struct.fields().get(index);
            path.add(current.columnId());
            names.add(current.name());
        }
        return new MoraineColumnHandle(column.columnId(), String.join(".", names), chain.getType(), current.type().duckLakeName(), Optional.empty(), path);
    }

    private static ConnectorExpression replace(ConnectorExpression expression, Map<ConnectorExpression, Variable> replacements)
    {
        Variable replacement = replacements.get(expression);
        if (replacement != null) {
            return replacement;
        }
        return switch (expression) {
            case Call call -> new Call(call.getType(), call.getFunctionName(), call.getArguments().stream().map(argument -> replace(argument, replacements)).toList());
            case FieldDereference dereference -> new FieldDereference(dereference.getType(), replace(dereference.getTarget(), replacements), dereference.getField());
            default -> expression;
        };
    }
}
