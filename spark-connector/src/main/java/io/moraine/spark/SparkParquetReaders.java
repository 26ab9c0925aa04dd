package io.moraine.spark;

import io.moraine.spark.files.LakeObjectFileSystems;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.parquet.ParquetOptions;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.execution.datasources.parquet.ParquetUtils;
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetPartitionReaderFactory;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The one place that builds Spark's own vectorized Parquet reader (a Spark-internal class, pinned to Spark 4.2): for a
 * physical schema whose fields carry Parquet field ids, with field-id matching switched on in a private configuration
 * (the session's setting is left alone). Spark's Parquet filters resolve columns by name, which is wrong after a rename,
 * so a reader gets filters only through {@link Template#factory(Filter[])}, built per file against that file's own
 * column names ({@link RowGroupFilters}).
 */
final class SparkParquetReaders
{
    private SparkParquetReaders() {}

    /** The session's Hadoop configuration, broadcast once per scan. */
    static Broadcast<SerializableConfiguration> hadoopConfiguration(SparkSession session)
    {
        return SerializableConfiguration.broadcast(session.sparkContext(), LakeObjectFileSystems.configure(session.sessionState().newHadoopConf()));
    }

    /** The session's Hadoop configuration for the driver's own reads (row summaries at planning). */
    static Configuration driverConfiguration(SparkSession session)
    {
        return LakeObjectFileSystems.configure(session.sessionState().newHadoopConf());
    }

    /** A reader with no filter. */
    static ParquetPartitionReaderFactory factory(SparkSession session, StructType physical)
    {
        return template(session, physical).factory(new Filter[0]);
    }

    /** What a reader of {@code physical} needs, so that executors can make one per file with that file's filters. */
    static Template template(SparkSession session, StructType physical)
    {
        SQLConf conf = session.sessionState().conf().clone();
        conf.setConfString("spark.sql.parquet.fieldId.read.enabled", "true");
        conf.setConfString("spark.sql.parquet.fieldId.read.ignoreMissing", "false");
        // Only the row groups: the filters a reader gets name the file's own columns (see above).
        conf.setConfString("spark.sql.parquet.filterPushdown", "true");
        conf.setConfString("spark.sql.parquet.recordLevelFilter.enabled", "false");
        conf.setConfString("spark.sql.parquet.enableVectorizedReader", "true");
        conf.setConfString("spark.sql.parquet.enableNestedColumnVectorizedReader", "true");
        if (!ParquetUtils.isBatchReadSupportedForSchema(conf, physical)) {
            throw SparkErrors.unsupported("Spark's vectorized Parquet reader cannot read " + physical.simpleString()
                    + "; the moraine connector reads data files with it only");
        }
        Configuration hadoop = LakeObjectFileSystems.configure(session.sessionState().newHadoopConf());
        String schema = physical.json();
        hadoop.set(ParquetInputFormat.READ_SUPPORT_CLASS, MoraineParquetReadSupport.class.getName());
        hadoop.set(ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA(), schema);
        hadoop.set("org.apache.spark.sql.parquet.row.attributes", schema);
        hadoop.set("spark.sql.session.timeZone", conf.sessionLocalTimeZone());
        hadoop.setBoolean("spark.sql.optimizer.nestedSchemaPruning.enabled", true);
        hadoop.setBoolean("spark.sql.caseSensitive", false);
        hadoop.setBoolean("spark.sql.parquet.binaryAsString", false);
        hadoop.setBoolean("spark.sql.parquet.int96AsTimestamp", true);
        hadoop.setBoolean("spark.sql.parquet.inferTimestampNTZ.enabled", true);
        hadoop.setBoolean("spark.sql.legacy.parquet.nanosAsLong", false);
        hadoop.setBoolean("spark.sql.parquet.fieldId.read.enabled", true);
        hadoop.setBoolean("spark.sql.parquet.fieldId.read.ignoreMissing", false);
        return new Template(new java.util.HashMap<>(scala.jdk.javaapi.CollectionConverters.asJava(conf.getAllConfs())),
                SerializableConfiguration.broadcast(session.sparkContext(), hadoop), physical);
    }

    /**
     * Serializable: executors make a reader per file from it. The settings travel as text, because a deserialized
     * {@link SQLConf} cannot be read; each reader gets a fresh one.
     */
    record Template(java.util.HashMap<String, String> settings, Broadcast<SerializableConfiguration> hadoop, StructType physical)
            implements java.io.Serializable
    {
        /** A reader handed {@code filters}, which must name the columns of the file it reads as that file names them. */
        ParquetPartitionReaderFactory factory(Filter[] filters)
        {
            SQLConf conf = new SQLConf();
            settings.forEach(conf::setConfString);
            return new ParquetPartitionReaderFactory(conf, hadoop, physical, physical, new StructType(), filters, scala.Option.empty(),
                    new ParquetOptions(scala.collection.immutable.Map$.MODULE$.<String, String>empty(), conf));
        }
    }
}
