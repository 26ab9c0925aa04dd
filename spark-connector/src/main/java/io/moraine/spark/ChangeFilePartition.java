package io.moraine.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/** One data file of a change feed: its insertion or deletion task as {@link ChangeTaskCodec} bytes. */
record ChangeFilePartition(byte[] task)
        implements InputPartition {}
