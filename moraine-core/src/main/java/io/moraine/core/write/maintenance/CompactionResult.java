package io.moraine.core.write.maintenance;

/** One compaction a merge or rewrite committed, as DuckLake's calls return it: the table, files replaced and files written. */
public record CompactionResult(String schemaName, String tableName, long filesProcessed, long filesCreated) {}
