package io.moraine.spark;

import io.moraine.core.write.LakeOptions;
import io.moraine.core.write.WriteTransaction;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Spark's {@link TableChange}s of one ALTER TABLE as changes of one {@link WriteTransaction} (columns, nested fields
 * by path, widened types, nullability, comments) plus the DuckLake table options set through properties. What DuckLake
 * cannot do (column positions, defaults from Spark, other properties) is refused before anything is committed.
 */
final class TableAlterations
{
    private final List<Consumer<WriteTransaction>> steps;
    private final Map<String, String> lakeOptions;

    private TableAlterations(List<Consumer<WriteTransaction>> steps, Map<String, String> lakeOptions)
    {
        this.steps = steps;
        this.lakeOptions = lakeOptions;
    }

    static TableAlterations of(String schema, String table, String qualifiedName, TableChange... changes)
    {
        List<Consumer<WriteTransaction>> steps = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        for (TableChange change : changes) {
            switch (change) {
                case TableChange.SetProperty set when set.property().equals(TableCatalog.PROP_COMMENT) ->
                        steps.add(transaction -> transaction.setComment(schema, table, set.value()));
                case TableChange.SetProperty set when LakeOptions.SUPPORTED.contains(set.property()) -> options.put(set.property(), set.value());
                case TableChange.RemoveProperty remove when remove.property().equals(TableCatalog.PROP_COMMENT) ->
                        steps.add(transaction -> transaction.setComment(schema, table, null));
                case TableChange.AddColumn add -> {
                    if (add.position() != null) {
                        throw SparkErrors.unsupported("ALTER TABLE " + qualifiedName + " ADD COLUMN " + String.join(".", add.fieldNames())
                                + " with FIRST or AFTER: DuckLake adds columns at the end; leave the position out");
                    }
                    if (add.defaultValue() != null) {
                        throw SparkErrors.unsupported("ALTER TABLE " + qualifiedName + " ADD COLUMN " + String.join(".", add.fieldNames())
                                + " with a DEFAULT: moraine's Spark connector does not add defaults yet; add the column without one");
                    }
                    List<String> parent = parent(add.fieldNames());
                    String name = add.fieldNames()[add.fieldNames().length - 1];
                    var column = SparkColumnDefinitions.of(name, add.dataType(), qualifiedName);
                    var definition = add.isNullable() ? column : column.notNull();
                    steps.add(transaction -> transaction.addColumn(schema, table, parent, definition));
                    if (add.comment() != null) {
                        steps.add(transaction -> transaction.setColumnComment(schema, table, path(add.fieldNames()), add.comment()));
                    }
                }
                case TableChange.RenameColumn rename ->
                        steps.add(transaction -> transaction.renameColumn(schema, table, path(rename.fieldNames()), rename.newName()));
                case TableChange.UpdateColumnType update -> {
                    String type = SparkColumnDefinitions.scalar(String.join(".", update.fieldNames()), update.newDataType(), qualifiedName);
                    steps.add(transaction -> transaction.setColumnType(schema, table, path(update.fieldNames()), type));
                }
                case TableChange.UpdateColumnNullability nullability ->
                        steps.add(transaction -> transaction.setColumnNullable(schema, table, path(nullability.fieldNames()), nullability.nullable()));
                case TableChange.UpdateColumnComment comment ->
                        steps.add(transaction -> transaction.setColumnComment(schema, table, path(comment.fieldNames()), comment.newComment()));
                case TableChange.DeleteColumn delete -> steps.add(transaction -> transaction.dropColumn(schema, table, path(delete.fieldNames())));
                default -> throw SparkErrors.unsupported("ALTER TABLE " + qualifiedName + ": " + describe(change)
                        + " is not something moraine's Spark connector does; it adds, drops and renames columns, widens types, changes nullability "
                        + "and comments, and sets comment and the DuckLake options " + String.join(", ", LakeOptions.SUPPORTED));
            }
        }
        return new TableAlterations(List.copyOf(steps), options);
    }

    boolean hasSchemaChanges()
    {
        return !steps.isEmpty();
    }

    void applyTo(WriteTransaction transaction)
    {
        steps.forEach(step -> step.accept(transaction));
    }

    Map<String, String> lakeOptions()
    {
        return lakeOptions;
    }

    private static List<String> path(String[] fieldNames)
    {
        return List.of(fieldNames);
    }

    private static List<String> parent(String[] fieldNames)
    {
        return Arrays.asList(fieldNames).subList(0, fieldNames.length - 1);
    }

    private static String describe(TableChange change)
    {
        return switch (change) {
            case TableChange.SetProperty set -> "setting property '" + set.property() + "'";
            case TableChange.RemoveProperty remove -> "removing property '" + remove.property() + "'";
            default -> change.getClass().getSimpleName();
        };
    }
}
