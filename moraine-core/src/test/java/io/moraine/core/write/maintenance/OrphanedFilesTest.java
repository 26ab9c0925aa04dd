package io.moraine.core.write.maintenance;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OrphanedFilesTest
{
    @Test
    void spellingsOfOnePathNormaliseAlike()
    {
        String path = "/lake/data/main/t/ducklake-1.parquet";
        for (String spelling : new String[] {"file:///lake/data/main/t/ducklake-1.parquet", "file:/lake/data/main/t/ducklake-1.parquet",
                "/lake/data//main/t/ducklake-1.parquet", "/lake/data/./main/t/ducklake-1.parquet", "/lake/data/main/x/../t/ducklake-1.parquet",
                "\\lake\\data\\main\\t\\ducklake-1.parquet"}) {
            assertThat(OrphanedFiles.normalise(spelling)).as(spelling).isEqualTo(path);
        }
        assertThat(OrphanedFiles.normalise("s3://bucket/data//main/./t/f.parquet")).isEqualTo("s3://bucket/data/main/t/f.parquet");
        assertThat(OrphanedFiles.normalise("/lake/data/main/t/other.parquet")).isNotEqualTo(path);
    }
}
