package io.moraine.core.write.maintenance;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.row.Row;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the rows of one source file into the output's layout (the table's columns at the sources' schema version, as
 * DuckDB writes them), as DuckLake's reader projects a file onto the table before its compaction writes it: a column is
 * found by field id, or, in a file added with {@code ducklake_add_data_files}, through its name mapping; a column the
 * file lacks is NULL (one with a default value is refused); integers widen and FLOAT becomes DOUBLE, as the type check at adding allowed. Any other difference
 * (another timestamp unit, a narrower decimal, a list or map laid out otherwise) is refused with a typed error.
 */
final class RowConversion
{
    /** How one output field is filled: from source field {@code source} (-1: NULL), converted by {@code value}. */
    private record Field(int source, Conversion value) {}

    private sealed interface Conversion
            permits Copy, Widen, Nested {}

    /** The same Parquet type (names aside): the value or subtree as it is. */
    private record Copy() implements Conversion {}

    /** A narrower integer into a wider one, or FLOAT into DOUBLE. */
    private record Widen(PrimitiveType from, PrimitiveType to) implements Conversion {}

    /** A struct whose fields are converted one by one. */
    private record Nested(GroupType target, List<Field> fields) implements Conversion {}

    private final Nested root;

    private RowConversion(Nested root)
    {
        this.root = root;
    }

    /**
     * The conversion of a file of {@code source} layout into {@code target} (user fields only); {@code nameMapping}
     * holds the file's {@code ducklake_name_mapping} rows when it was added by name, else empty.
     */
    static RowConversion of(GroupType source, GroupType target, Optional<List<Row>> nameMapping, Set<Integer> defaulted, String file)
    {
        if (nameMapping.isPresent() && nameMapping.get().stream().anyMatch(row -> Boolean.TRUE.equals(row.get("is_partition")))) {
            throw new UnsupportedFeatureException("data file " + file + " was added with hive partition columns mapped from its path; the core does "
                    + "not compact such files — compact this table through DuckDB");
        }
        return new RowConversion(nested(source, target, nameMapping, null, defaulted, file));
    }

    Group convert(Group row)
    {
        return fill(row, root);
    }

    private static Nested nested(GroupType source, GroupType target, Optional<List<Row>> mapping, Long parentColumn, Set<Integer> defaulted,
            String file)
    {
        List<Field> fields = new ArrayList<>();
        for (Type field : target.getFields()) {
            int sourceIndex = sourceField(source, field, mapping, parentColumn);
            if (sourceIndex < 0 && field.getId() != null && defaulted.contains(field.getId().intValue())) {
                throw new UnsupportedFeatureException("data file " + file + " lacks column " + field.getName() + ", which has a default value; the core "
                        + "does not fill in defaults when compacting — compact this table through DuckDB");
            }
            if (sourceIndex < 0) {
                fields.add(new Field(-1, new Copy()));
                continue;
            }
            Type from = source.getType(sourceIndex);
            Long column = mapping.flatMap(rows -> mappingRow(rows, field, parentColumn)).map(row -> row.getLong("column_id")).orElse(null);
            fields.add(new Field(sourceIndex, conversion(from, field, mapping, column, defaulted, file)));
        }
        return new Nested(target, fields);
    }

    private static Conversion conversion(Type from, Type to, Optional<List<Row>> mapping, Long column, Set<Integer> defaulted, String file)
    {
        if (sameLayout(from, to)) {
            return new Copy();
        }
        if (from.isPrimitive() && to.isPrimitive() && widens(from.asPrimitiveType(), to.asPrimitiveType())) {
            return new Widen(from.asPrimitiveType(), to.asPrimitiveType());
        }
        boolean struct = !from.isPrimitive() && !to.isPrimitive() && from.getLogicalTypeAnnotation() == null && to.getLogicalTypeAnnotation() == null
                && from.getRepetition() != Type.Repetition.REPEATED;
        if (struct) {
            return nested(from.asGroupType(), to.asGroupType(), mapping, column, defaulted, file);
        }
        throw new UnsupportedFeatureException("data file " + file + " holds column " + to.getName() + " as " + from + ", which the core does not "
                + "convert to the table's " + to + " when compacting — compact this table through DuckDB");
    }

    /** The source field holding target field {@code field}: by field id, or through the name mapping; -1 when absent. */
    private static int sourceField(GroupType source, Type field, Optional<List<Row>> mapping, Long parentColumn)
    {
        if (mapping.isPresent()) {
            Optional<String> name = mappingRow(mapping.get(), field, parentColumn).map(row -> row.getString("source_name"));
            if (name.isEmpty()) {
                return -1;
            }
            for (int index = 0; index < source.getFieldCount(); index++) {
                if (source.getType(index).getName().equals(name.get())) {
                    return index;
                }
            }
            return -1;
        }
        for (int index = 0; index < source.getFieldCount(); index++) {
            Type candidate = source.getType(index);
            if (candidate.getId() != null && field.getId() != null && candidate.getId().intValue() == field.getId().intValue()) {
                return index;
            }
        }
        return -1;
    }

    private static Optional<Row> mappingRow(List<Row> rows, Type field, Long parentColumn)
    {
        return rows.stream().filter(row -> field.getId() != null && row.getLong("target_field_id") == field.getId().intValue()
                && Objects.equals(row.getLong("parent_column"), parentColumn)).findFirst();
    }

    /** The same Parquet layout but for names, field ids and whether a value may be NULL. */
    private static boolean sameLayout(Type from, Type to)
    {
        if (from.isPrimitive() != to.isPrimitive() || !Objects.equals(from.getLogicalTypeAnnotation(), to.getLogicalTypeAnnotation())) {
            return false;
        }
        if ((from.getRepetition() == Type.Repetition.REPEATED) != (to.getRepetition() == Type.Repetition.REPEATED)) {
            return false;
        }
        if (from.isPrimitive()) {
            PrimitiveType a = from.asPrimitiveType();
            PrimitiveType b = to.asPrimitiveType();
            return a.getPrimitiveTypeName() == b.getPrimitiveTypeName() && a.getTypeLength() == b.getTypeLength();
        }
        GroupType a = from.asGroupType();
        GroupType b = to.asGroupType();
        if (a.getFieldCount() != b.getFieldCount()) {
            return false;
        }
        for (int index = 0; index < a.getFieldCount(); index++) {
            if (!sameLayout(a.getType(index), b.getType(index))) {
                return false;
            }
        }
        return true;
    }

    private static boolean widens(PrimitiveType from, PrimitiveType to)
    {
        if (from.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FLOAT) {
            return to.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.DOUBLE && to.getLogicalTypeAnnotation() == null;
        }
        return integer(from) && integer(to);
    }

    private static boolean integer(PrimitiveType type)
    {
        boolean physical = type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT32
                || type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT64;
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        return physical && (logical == null || logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation);
    }

    private static Group fill(Group source, Nested nested)
    {
        Group target = new SimpleGroup(nested.target());
        for (int index = 0; index < nested.fields().size(); index++) {
            Field field = nested.fields().get(index);
            if (field.source() < 0) {
                continue;
            }
            int repetitions = source.getFieldRepetitionCount(field.source());
            for (int value = 0; value < repetitions; value++) {
                switch (field.value()) {
                    case Copy ignored -> copy(source, field.source(), value, target, index, nested.target().getType(index));
                    case Widen widen -> widen(source, field.source(), value, widen, target, index);
                    case Nested child -> target.add(index, fill(source.getGroup(field.source(), value), child));
                }
            }
        }
        return target;
    }

    private static void copy(Group source, int field, int value, Group target, int index, Type type)
    {
        if (!type.isPrimitive()) {
            // the writer walks a subtree by position, so the source's own subtree serves as it is
            target.add(index, source.getGroup(field, value));
            return;
        }
        switch (type.asPrimitiveType().getPrimitiveTypeName()) {
            case BOOLEAN -> target.add(index, source.getBoolean(field, value));
            case INT32 -> target.add(index, source.getInteger(field, value));
            case INT64 -> target.add(index, source.getLong(field, value));
            case FLOAT -> target.add(index, source.getFloat(field, value));
            case DOUBLE -> target.add(index, source.getDouble(field, value));
            case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> target.add(index, source.getBinary(field, value));
        }
    }

    private static void widen(Group source, int field, int value, Widen widen, Group target, int index)
    {
        if (widen.from().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FLOAT) {
            target.add(index, (double) source.getFloat(field, value));
            return;
        }
        long number;
        if (widen.from().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT32) {
            int raw = source.getInteger(field, value);
            boolean unsigned = widen.from().getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer && !integer.isSigned();
            number = unsigned ? Integer.toUnsignedLong(raw) : raw;
        }
        else {
            number = source.getLong(field, value);
        }
        if (widen.to().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT32) {
            target.add(index, (int) number);
        }
        else {
            target.add(index, number);
        }
    }
}
