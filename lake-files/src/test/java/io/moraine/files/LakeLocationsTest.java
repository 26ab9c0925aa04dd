package io.moraine.files;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.trino.filesystem.Location;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LakeLocationsTest
{
    @Test
    void localPathsAndFileUrisAreTrinosLocalLocations()
    {
        assertThat(LakeLocations.location("/tmp/lake/main/t/f.parquet")).isEqualTo(Location.of("local:///tmp/lake/main/t/f.parquet"));
        assertThat(LakeLocations.location("file:///tmp/lake/main/t/")).isEqualTo(Location.of("local:///tmp/lake/main/t/"));
        assertThat(LakeLocations.location("lake/f.parquet")).as("relative to the working directory")
                .isEqualTo(Location.of("local://" + Path.of("lake/f.parquet").toAbsolutePath()));
    }

    @Test
    void objectStoreUrisPassThrough()
    {
        assertThat(LakeLocations.location("s3://bucket/lake/f.parquet")).isEqualTo(Location.of("s3://bucket/lake/f.parquet"));
        assertThat(LakeLocations.location("gs://bucket/lake/f.parquet")).isEqualTo(Location.of("gs://bucket/lake/f.parquet"));
        assertThat(LakeLocations.location("abfss://c@account.dfs.core.windows.net/lake/f.parquet"))
                .isEqualTo(Location.of("abfss://c@account.dfs.core.windows.net/lake/f.parquet"));
    }

    @Test
    void duckdbsShortAzurePathsNameTheAccountOfTheEnvironment()
    {
        AzureEnvironment azure = new AzureEnvironment(new Environment(Map.of("AZURE_STORAGE_ACCOUNT_NAME", "lakeaccount")));
        assertThat(AzureEnvironment.isShortForm("az://container/lake/f.parquet")).isTrue();
        assertThat(AzureEnvironment.isShortForm("abfss://container@lakeaccount.dfs.core.windows.net/lake")).isFalse();
        assertThat(azure.location("az://container/lake/f.parquet")).isEqualTo(Location.of("abfss://container@lakeaccount.dfs.core.windows.net/lake/f.parquet"));
        assertThat(azure.location("azure://container/lake/")).isEqualTo(Location.of("abfss://container@lakeaccount.dfs.core.windows.net/lake/"));
        assertThatThrownBy(() -> new AzureEnvironment(new Environment(Map.of())).location("az://container/lake/f.parquet"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("set AZURE_STORAGE_ACCOUNT_NAME");
        assertThatThrownBy(() -> azure.location("az://lakeaccount.blob.core.windows.net/container/f.parquet"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("does not name an Azure container");
    }

    @Test
    void aSchemeWithoutAFileSystemIsRefusedNamingThePath()
    {
        try (LakeFileSystems files = LakeFileSystems.fromEnvironment(Map.of())) {
            assertThatThrownBy(() -> files.newInputFile("hdfs://namenode/lake/f.parquet", OptionalLong.empty()))
                    .isInstanceOf(UnsupportedFeatureException.class)
                    .hasMessageContaining("hdfs://namenode/lake/f.parquet")
                    .hasMessageContaining("supported are local paths, file://, s3://");
        }
    }
}
