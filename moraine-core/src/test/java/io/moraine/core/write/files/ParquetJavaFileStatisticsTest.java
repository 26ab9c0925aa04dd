package io.moraine.core.write.files;


import io.moraine.core.catalog.LakeSchema;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.catalog.TableDefinition;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.io.ParquetReaders;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.InputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A data file written by parquet-java (as engines write them) through {@link DataFileLayout}'s target: parquet-java
 * counts NaN, so {@link ParquetFileStatistics} gives DuckDB's exact {@code contains_nan} and the bounds of the other
 * values; its full-length string bounds are cut as DuckDB cuts them.
 */
class ParquetJavaFileStatisticsTest
{
    private static final List<TableColumn> COLUMNS = List.of(
            new TableColumn(1, "f", DuckLakeType.of(PrimitiveKind.FLOAT32), Optional.empty()),
            new TableColumn(2, "d", DuckLakeType.of(PrimitiveKind.FLOAT64), Optional.empty()),
            new TableColumn(3, "v", DuckLakeType.of(PrimitiveKind.VARCHAR), Optional.empty()));

    @Test
    void parquetJavaFile(@TempDir Path directory)
            throws Exception
    {
        LakeTable table = new LakeTable(1, new UUID(0, 1), new LakeSchema(0, new UUID(0, 0), "main", Optional.of("main/"), true), "t",
                Optional.of("t/"), true);
        TableDefinition definition = new TableDefinition(table, new TableSchema(COLUMNS), Optional.empty(), Optional.empty(), java.util.Map.of());
        DataFileLayout layout = DataFileLayout.of(directory + "/main/t/", definition, false, key -> key.equals("target_file_size")
                ? Optional.of("10MB") : Optional.empty());
        assertThat(layout.settings().targetFileSizeBytes()).isEqualTo(10_000_000L);
        assertThat(layout.settings().rollOver()).isTrue();
        DataFileTarget target = layout.target();
        assertThat(target.location()).isEqualTo(directory + "/main/t/" + target.path());

        SimpleGroupFactory groups = new SimpleGroupFactory(target.schema());
        java.nio.file.Files.createDirectories(Path.of(target.location()).getParent());
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(LocalFileSystem.INSTANCE.newOutputFile(target.location()))
                .withType(target.schema()).withCompressionCodec(target.settings().compression()).build()) {
            writer.write(groups.newGroup().append("f", 1.5f).append("d", Double.NaN).append("v", "z".repeat(300)));
            writer.write(groups.newGroup().append("f", -0.25f).append("d", 2.5).append("v", "a"));
            writer.write(groups.newGroup());
        }
        InputFile input = LocalFileSystem.INSTANCE.newInputFile(target.location(), OptionalLong.empty());
        List<FileColumnStatistics> statistics;
        try (ParquetFileReader reader = ParquetReaders.open(input)) {
            statistics = ParquetFileStatistics.fromFooter(reader.getFooter(), COLUMNS);
        }
        assertThat(statistics).extracting(FileColumnStatistics::columnId).containsExactly(1L, 2L, 3L);
        assertThat(statistics.get(0)).extracting("valueCount", "nullCount", "minValue", "maxValue", "containsNan")
                .containsExactly(2L, 1L, "-0.25", "1.5", false);
        assertThat(statistics.get(1)).extracting("valueCount", "nullCount", "minValue", "maxValue", "containsNan")
                .containsExactly(2L, 1L, "2.5", "2.5", true);
        assertThat(statistics.get(2)).extracting("valueCount", "nullCount", "minValue", "maxValue", "containsNan")
                .containsExactly(2L, 1L, "a", "z".repeat(255) + "{", null);
        assertThat(statistics).allSatisfy(column -> assertThat(column.columnSizeBytes()).isPositive());
    }
}
