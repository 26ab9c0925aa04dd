package io.moraine.core.write;

import io.moraine.core.catalog.NameMapEntry;
import io.moraine.core.write.files.WrittenDataFile;

import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A data file without field ids and the name mapping it is read through (see {@link WriteTransaction#addMappedDataFiles}).
 * {@code partitionKeyIndexes} gives the {@code partition_key_index} of each of the file's partition values (DuckLake's
 * {@code ducklake_add_data_files} writes them in the order it finds them, not always one per key); empty: the values
 * are in key order. {@code keyTypedStatistics} names the columns whose statistics are a transform key's value (a
 * {@code year=2024} directory's, for a file without the column): DuckLake types them as the key (BIGINT), so merging
 * them with the column's own bounds drops the table's bounds.
 */
public record MappedDataFile(WrittenDataFile file, List<NameMapEntry> nameMap, List<Long> partitionKeyIndexes, Set<Long> keyTypedStatistics)
{
    public MappedDataFile
    {
        requireNonNull(file, "file is null");
        nameMap = List.copyOf(nameMap);
        partitionKeyIndexes = List.copyOf(partitionKeyIndexes);
        keyTypedStatistics = Set.copyOf(keyTypedStatistics);
        if (!partitionKeyIndexes.isEmpty() && partitionKeyIndexes.size() != file.partitionValues().size()) {
            throw new IllegalArgumentException("one key index per partition value: " + partitionKeyIndexes.size() + " for "
                    + file.partitionValues().size() + " values of " + file.path());
        }
    }

    /** A file of an unpartitioned table, or one whose partition values are in key order. */
    public MappedDataFile(WrittenDataFile file, List<NameMapEntry> nameMap)
    {
        this(file, nameMap, List.of(), Set.of());
    }
}
