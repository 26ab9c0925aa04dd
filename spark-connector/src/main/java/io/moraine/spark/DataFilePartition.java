package io.moraine.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/** One data file of a scan: its task as the core's {@link io.moraine.core.scan.ScanTaskCodec} bytes, all an executor needs. */
record DataFilePartition(byte[] task, String path)
        implements InputPartition {}
