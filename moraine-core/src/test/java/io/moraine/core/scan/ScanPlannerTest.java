package io.moraine.core.scan;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.SyntheticCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScanPlannerTest
{
    private static final int FILES = 10_000;
    private static final long TABLE = 1;

    private MoraineCatalog catalog;

    @BeforeAll
    void createCatalog()
    {
        // 101 snapshots: the table is created in snapshot 1, then 100 snapshots add 100 files of 100 rows each.
        catalog = MoraineCatalog.create(StoreUri.parse("memory:///scan-planner-" + System.nanoTime()),
                new NewCatalog("/lake/data/", false, false, NewCatalog.CREATED_BY));
        new SyntheticCatalog(101, FILES / 100, 1).load(catalog);
    }

    @AfterAll
    void close()
    {
        catalog.close();
    }

    @Test
    void theFirstTaskArrivesBeforeTheLastFileIsPlanned()
    {
        try (CatalogSnapshot snapshot = catalog.latest(); TaskStream tasks = ScanBuilder.forTable(snapshot, TABLE).build().planTasks()) {
            ScanTask first = tasks.next();
            assertThat(((ScanPlanner) tasks).filesPlanned()).isEqualTo(1);
            List<Long> fileIds = new ArrayList<>(List.of(((DataFileTask) first).dataFileId()));
            tasks.forEachRemaining(task -> fileIds.add(((DataFileTask) task).dataFileId()));
            assertThat(fileIds).hasSize(FILES).isSorted();
        }
    }

    @Test
    void aTaskCarriesWhatReadingItsFileNeeds()
    {
        try (CatalogSnapshot snapshot = catalog.at(50); TaskStream tasks = ScanBuilder.forTable(snapshot, TABLE).build().planTasks()) {
            DataFileTask task = (DataFileTask) tasks.next();
            // Files are relative to the table's path, which is relative to the schema's, under data_path.
            assertThat(task.path()).isEqualTo("/lake/data/main/t1/ducklake-00000000-0000-0002-0000-000000000000.parquet");
            assertThat(task.snapshotId()).isEqualTo(50);
            assertThat(task.recordCount()).isEqualTo(100);
            assertThat(task.sizeBytes()).isEqualTo(4096);
            assertThat(task.footerSize()).hasValue(512);
            assertThat(task.rowIdStart()).hasValue(0);
            assertThat(task.splitStart()).isZero();
            assertThat(task.splitLength()).isEqualTo(4096);
            assertThat(task.certainRows()).isEqualTo(100);
            long files = 1;
            while (tasks.hasNext()) {
                tasks.next();
                files++;
            }
            // Snapshots 2..50 added 100 files each.
            assertThat(files).isEqualTo(49 * 100);
        }
    }

    @Test
    void aDataPathOverrideMovesEveryRelativePath()
    {
        try (CatalogSnapshot snapshot = catalog.latest();
                TaskStream tasks = ScanBuilder.forTable(snapshot, TABLE).withDataPath(Optional.of("s3://moved/lake")).build().planTasks()) {
            assertThat(((DataFileTask) tasks.next()).path()).startsWith("s3://moved/lake/main/t1/ducklake-");
        }
    }

    @Test
    void aLimitStopsPlanningOnceThePlannedFilesHoldEnoughRows()
    {
        try (CatalogSnapshot snapshot = catalog.latest(); TaskStream tasks = ScanBuilder.forTable(snapshot, TABLE).withLimit(250).build().planTasks()) {
            List<ScanTask> planned = new ArrayList<>();
            tasks.forEachRemaining(planned::add);
            assertThat(planned).hasSize(3);
        }
    }

    @Test
    void aFilterThatMatchesNothingPlansNothing()
    {
        try (CatalogSnapshot snapshot = catalog.latest(); TaskStream tasks = ScanBuilder.forTable(snapshot, TABLE).withFilter(ScanFilter.none()).build().planTasks()) {
            assertThat(tasks.hasNext()).isFalse();
        }
    }

    @Test
    void largeFilesAreSplitIntoByteRangesThatCoverThem()
    {
        try (CatalogSnapshot snapshot = catalog.at(2); TaskStream tasks = ScanBuilder.forTable(snapshot, TABLE).withMaxSplitSize(1000).build().planTasks()) {
            List<DataFileTask> first = new ArrayList<>();
            while (tasks.hasNext() && first.size() < 5) {
                first.add((DataFileTask) tasks.next());
            }
            assertThat(first).extracting(DataFileTask::dataFileId).containsOnly(0L);
            assertThat(first).extracting(DataFileTask::splitStart).containsExactly(0L, 1000L, 2000L, 3000L, 4000L);
            assertThat(first.getLast().splitLength()).isEqualTo(96);
            assertThat(first).allMatch(task -> task.certainRows() == 0, "a part of a file certifies no rows");
        }
    }

    @Test
    void tasksSurviveTheirEncoding()
    {
        DataFileTask file = new DataFileTask(7, 42, 9, "s3://b/t/f.parquet", 1234, 100, OptionalLong.of(77), OptionalLong.empty(), 40, OptionalLong.of(44),
                List.of(new DeleteFileRef("s3://b/t/d.parquet", OptionalLong.of(55), 41, "parquet")), new long[] {1, 5, 99}, OptionalLong.of(3),
                java.util.Arrays.asList("2024", null), 100, 900);
        DataFileTask decoded = (DataFileTask) ScanTaskCodec.decode(ScanTaskCodec.encode(file));
        assertThat(decoded).usingRecursiveComparison().isEqualTo(file);
        DataFileTask longPath = file.withSplit(0, 1234);
        String partition = "p".repeat(70_000);
        DataFileTask longValue = new DataFileTask(7, 42, 9, "/" + "d".repeat(70_000) + ".parquet", 1, 1, OptionalLong.empty(), OptionalLong.of(0), 40,
                OptionalLong.empty(), List.of(), new long[0], OptionalLong.of(1), List.of(partition), 0, 1);
        assertThat(ScanTaskCodec.decode(ScanTaskCodec.encode(longPath))).usingRecursiveComparison().isEqualTo(longPath);
        assertThat(ScanTaskCodec.decode(ScanTaskCodec.encode(longValue))).usingRecursiveComparison().isEqualTo(longValue);
        InlinedRowsTask inlined = new InlinedRowsTask(7, 42, 45, List.of(3L, 5L));
        assertThat(ScanTaskCodec.decode(ScanTaskCodec.encode(inlined))).isEqualTo(inlined);
        DataFileTask mapped = file.withNameMapping(new NameMapping(12, List.of(new io.moraine.core.catalog.NameMapEntry("id", 1, List.of()),
                new io.moraine.core.catalog.NameMapEntry("s", 2, List.of(new io.moraine.core.catalog.NameMapEntry("x", 3, List.of()))))));
        assertThat(ScanTaskCodec.decode(ScanTaskCodec.encode(mapped))).usingRecursiveComparison().isEqualTo(mapped);
    }

    @Test
    void aNameMappingGivesTheFileSchemaFieldIdsByNameAtEveryLevel()
    {
        org.apache.parquet.schema.MessageType footer = org.apache.parquet.schema.MessageTypeParser.parseMessageType("""
                message duckdb_schema {
                  optional binary name (STRING);
                  optional int64 ID;
                  optional int32 extra = 7;
                  optional group s {
                    optional int32 b;
                    optional int32 a;
                  }
                  optional group l (LIST) {
                    repeated group list {
                      optional int64 element;
                    }
                  }
                  optional group m (MAP) {
                    repeated group key_value {
                      required binary key (STRING);
                      optional int32 value;
                    }
                  }
                }
                """);
        NameMapping mapping = new NameMapping(5, List.of(
                entry("id", 1), entry("name", 2),
                new io.moraine.core.catalog.NameMapEntry("s", 3, List.of(entry("a", 4), entry("b", 5))),
                new io.moraine.core.catalog.NameMapEntry("l", 6, List.of(entry("list", 8))),
                new io.moraine.core.catalog.NameMapEntry("m", 9, List.of(entry("key", 10), entry("value", 11)))));
        DataFileTask task = new DataFileTask(1, 1, 1, "/f.parquet", 1, 1, OptionalLong.empty(), OptionalLong.of(0), 1, OptionalLong.empty(), List.of(),
                new long[0], OptionalLong.empty(), List.of(), 0, 1).withNameMapping(mapping);
        org.apache.parquet.schema.MessageType mapped = task.fileSchema(footer);

        assertThat(FieldIds.find(mapped, 1).orElseThrow().getName()).isEqualTo("ID");
        assertThat(FieldIds.find(mapped, 2).orElseThrow().getName()).isEqualTo("name");
        assertThat(FieldIds.has(mapped, 7)).as("a field the mapping does not name keeps no stray id").isFalse();
        org.apache.parquet.schema.GroupType struct = FieldIds.find(mapped, 3).orElseThrow().asGroupType();
        assertThat(FieldIds.find(struct, 4).orElseThrow().getName()).isEqualTo("a");
        assertThat(FieldIds.find(struct, 5).orElseThrow().getName()).isEqualTo("b");
        org.apache.parquet.schema.GroupType list = FieldIds.find(mapped, 6).orElseThrow().asGroupType();
        assertThat(list.getType(0).asGroupType().getType(0).getId().intValue()).isEqualTo(8);
        org.apache.parquet.schema.GroupType keyValue = FieldIds.find(mapped, 9).orElseThrow().asGroupType().getType(0).asGroupType();
        assertThat(keyValue.getType(0).getId().intValue()).isEqualTo(10);
        assertThat(keyValue.getType(1).getId().intValue()).isEqualTo(11);
        assertThat(mapped.getColumns()).extracting(column -> String.join(".", column.getPath()))
                .containsExactlyElementsOf(footer.getColumns().stream().map(column -> String.join(".", column.getPath())).toList());
        assertThat(task.withNameMapping(mapping).withSplit(0, 1).fileSchema(footer)).isEqualTo(mapped);
    }

    private static io.moraine.core.catalog.NameMapEntry entry(String sourceName, long targetFieldId)
    {
        return new io.moraine.core.catalog.NameMapEntry(sourceName, targetFieldId, List.of());
    }
}
