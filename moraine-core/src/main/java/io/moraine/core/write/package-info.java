/**
 * The one write path every engine commits through: {@link io.moraine.core.write.WriteTransaction} collects DDL, inlined
 * rows, data files (written as {@code io.moraine.core.write.files} says) and deletes, and commits exactly the catalog rows
 * DuckDB+DuckLake 1.5.5 writes for them, as one snapshot, under DuckLake's conflict rules. Maintenance operations are in
 * {@code io.moraine.core.write.maintenance}.
 */
package io.moraine.core.write;
