/**
 * How DuckLake 1.5.5 writes its data and delete files, for any engine that writes a moraine lake: where a file goes
 * and what Parquet schema (field ids) and settings it has ({@link io.moraine.core.write.files.DataFileLayout},
 * {@link io.moraine.core.write.files.DataFileTarget}), the statistics DuckLake records for it, read from its footer
 * ({@link io.moraine.core.write.files.ParquetFileStatistics}), and the written file handed back to a transaction
 * ({@link io.moraine.core.write.files.WrittenDataFile}).
 */
package io.moraine.core.write.files;
