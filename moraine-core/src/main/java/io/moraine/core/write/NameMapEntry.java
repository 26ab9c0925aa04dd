package io.moraine.core.write;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One column of a name mapping ({@code ducklake_name_mapping}): the file's column {@code sourceName} holds the table's
 * field {@code targetFieldId}; a struct's fields are its children. DuckLake reads a data file without field ids
 * (one added with {@code ducklake_add_data_files}) through its mapping.
 */
public record NameMapEntry(String sourceName, long targetFieldId, List<NameMapEntry> children)
{
    public NameMapEntry
    {
        requireNonNull(sourceName, "sourceName is null");
        children = List.copyOf(children);
    }

    /**
     * Whether the two lists map alike, as DuckLake's {@code ListIsCompatible} decides: the same source names, each with
     * the same target and compatible children, in any order.
     */
    static boolean compatible(List<NameMapEntry> left, List<NameMapEntry> right)
    {
        if (left.size() != right.size()) {
            return false;
        }
        for (NameMapEntry entry : left) {
            boolean matched = right.stream().anyMatch(other -> other.sourceName.equals(entry.sourceName) && other.targetFieldId == entry.targetFieldId
                    && compatible(entry.children, other.children));
            if (!matched) {
                return false;
            }
        }
        return true;
    }
}
