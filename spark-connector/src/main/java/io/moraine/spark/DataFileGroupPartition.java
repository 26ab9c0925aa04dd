package io.moraine.spark;

import org.apache.spark.sql.connector.read.InputPartition;

import java.util.ArrayList;
import java.util.List;

/**
 * Several small data files read one after another by one Spark task, as Spark's own file sources pack files: each file
 * costs its size plus {@code spark.sql.files.openCostInBytes}, and a group holds at most
 * {@code spark.sql.files.maxPartitionBytes} (less when the table is small, so that every core gets work). Without it a
 * table of thousands of tiny files would be thousands of tasks.
 */
record DataFileGroupPartition(List<DataFilePartition> files)
        implements InputPartition
{
    DataFileGroupPartition
    {
        files = List.copyOf(files);
    }

    /**
     * Packs {@code files} (with their sizes) in planning order: a file joins the current group while the group's cost
     * stays within {@code maxGroupBytes}; a group of one file is that file's own partition.
     */
    static List<InputPartition> pack(List<DataFilePartition> files, List<Long> sizes, long openCost, long maxGroupBytes)
    {
        List<InputPartition> packed = new ArrayList<>();
        List<DataFilePartition> group = new ArrayList<>();
        long groupBytes = 0;
        for (int i = 0; i < files.size(); i++) {
            long cost = sizes.get(i) + openCost;
            if (!group.isEmpty() && groupBytes + cost > maxGroupBytes) {
                packed.add(close(group));
                group = new ArrayList<>();
                groupBytes = 0;
            }
            group.add(files.get(i));
            groupBytes += cost;
        }
        if (!group.isEmpty()) {
            packed.add(close(group));
        }
        return packed;
    }

    /**
     * The largest group: Spark's rule, {@code min(maxPartitionBytes, max(openCost, total cost / parallelism))}.
     */
    static long maxGroupBytes(long totalCost, long maxPartitionBytes, long openCost, int parallelism)
    {
        return Math.min(maxPartitionBytes, Math.max(openCost, totalCost / Math.max(1, parallelism)));
    }

    private static InputPartition close(List<DataFilePartition> group)
    {
        return group.size() == 1 ? group.getFirst() : new DataFileGroupPartition(group);
    }
}
