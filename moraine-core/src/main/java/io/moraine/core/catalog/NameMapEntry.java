package io.moraine.core.catalog;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One column of a name mapping ({@code ducklake_name_mapping}): the file's column {@code sourceName} holds the table's
 * field {@code targetFieldId}; a struct's fields, a list's element ({@code list}) and a map's key and value are its
 * children. With {@code hivePartition} ({@code is_partition}) the value is not in the file but in the hive directory
 * {@code sourceName=value} of its path. DuckLake reads a data file without field ids (one added with
 * {@code ducklake_add_data_files}) through its mapping.
 */
public record NameMapEntry(String sourceName, long targetFieldId, List<NameMapEntry> children, boolean hivePartition)
{
    public NameMapEntry
    {
        requireNonNull(sourceName, "sourceName is null");
        children = List.copyOf(children);
    }

    /** A column read from the file. */
    public NameMapEntry(String sourceName, long targetFieldId, List<NameMapEntry> children)
    {
        this(sourceName, targetFieldId, children, false);
    }

    /** A column whose value is the file's hive directory {@code sourceName=value}. */
    public static NameMapEntry hivePartition(String sourceName, long targetFieldId)
    {
        return new NameMapEntry(sourceName, targetFieldId, List.of(), true);
    }

    /**
     * Whether the two lists map alike, as DuckLake's {@code ListIsCompatible} decides: the same source names, each with
     * the same target, the same hive flag and compatible children, in any order.
     */
    public static boolean compatible(List<NameMapEntry> left, List<NameMapEntry> right)
    {
        if (left.size() != right.size()) {
            return false;
        }
        for (NameMapEntry entry : left) {
            boolean matched = right.stream().anyMatch(other -> other.sourceName.equals(entry.sourceName) && other.targetFieldId == entry.targetFieldId
                    && other.hivePartition == entry.hivePartition
                    && compatible(entry.children, other.children));
            if (!matched) {
                return false;
            }
        }
        return true;
    }
}
