package io.moraine.core.catalog;

import io.moraine.core.error.ErrorCode;
import io.moraine.core.error.FileOutsideAllowedLocationsException;
import io.moraine.core.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LakePathTest
{
    @Test
    void normalizingCollapsesDotsAndEmptySegmentsAndKeepsSchemeAndAuthority()
    {
        assertThat(LakePath.normalize("/data/lake/main/./t//a.parquet")).isEqualTo("/data/lake/main/t/a.parquet");
        assertThat(LakePath.normalize("/data/lake/main/t/../../../other/a.parquet")).isEqualTo("/data/other/a.parquet");
        assertThat(LakePath.normalize("S3://Bucket/lake//x/../y.parquet")).isEqualTo("s3://Bucket/lake/y.parquet");
        assertThat(LakePath.normalize("file:///data/lake/")).isEqualTo("/data/lake/");
        assertThat(LakePath.normalize("file:/data/lake/a")).isEqualTo("/data/lake/a");
        assertThat(LakePath.normalize("/data/lake/main/..")).isEqualTo("/data/lake/");
    }

    @Test
    void aDotDotAboveTheRootIsRefused()
    {
        assertThatThrownBy(() -> LakePath.normalize("/data/../../etc/passwd"))
                .isInstanceOf(FileOutsideAllowedLocationsException.class)
                .hasMessageContaining("/data/../../etc/passwd");
        assertThatThrownBy(() -> LakePath.normalize("s3://bucket/../other-bucket/x")).isInstanceOf(FileOutsideAllowedLocationsException.class);
    }

    @Test
    void locationsMatchOnWholeSegments()
    {
        assertThat(LakePath.isUnder("/data/lake/a.parquet", "/data/lake")).isTrue();
        assertThat(LakePath.isUnder("/data/lake/a.parquet", "/data/lake/")).isTrue();
        assertThat(LakePath.isUnder("/data/lake2/a.parquet", "/data/lake")).isFalse();
        assertThat(LakePath.isUnder("s3://bucket/lake/a", "s3://bucket/lake/")).isTrue();
        assertThat(LakePath.isUnder("s3://bucket2/lake/a", "s3://bucket/")).isFalse();
    }

    @Test
    void normalSpellingIsPlainSegments()
    {
        assertThat(LakePath.isNormalSpelling("main/t/a.parquet")).isTrue();
        assertThat(LakePath.isNormalSpelling("s3://bucket/lake/a.parquet")).isTrue();
        assertThat(LakePath.isNormalSpelling("file:///data/a.parquet")).isTrue();
        assertThat(LakePath.isNormalSpelling("main/./a.parquet")).isFalse();
        assertThat(LakePath.isNormalSpelling("main//a.parquet")).isFalse();
        assertThat(LakePath.isNormalSpelling("../a.parquet")).isFalse();
    }

    @Test
    void withoutTheSettingRegisteredAbsolutePathsAreAllowedButARelativeEscapeIsNot()
    {
        AllowedLocations allowed = AllowedLocations.registered("the setting");
        allowed.checkRegistered("/data/lake/main/t/a.parquet", "/data/lake/", "/data/lake/", "read");
        allowed.checkRegistered("/elsewhere/b.parquet", "/elsewhere/b.parquet", "/data/lake/", "read");
        assertThatThrownBy(() -> allowed.checkRegistered("/data/lake/main/t/../../../secret.parquet", "/data/lake/", "/data/lake/", "read data file 7"))
                .isInstanceOf(FileOutsideAllowedLocationsException.class)
                .hasMessageContaining("cannot read data file 7 /data/lake/main/t/../../../secret.parquet")
                .hasMessageContaining("the setting")
                .satisfies(e -> assertThat(((FileOutsideAllowedLocationsException) e).code()).isEqualTo(ErrorCode.LOCATION_NOT_ALLOWED));
        // A new registration has no "registered" exemption of its own.
        assertThatThrownBy(() -> allowed.checkNew("/elsewhere/b.parquet", "/data/lake/", "/data/lake/", "register"))
                .isInstanceOf(FileOutsideAllowedLocationsException.class);
    }

    @Test
    void theSettingListsTheOnlyLocationsBesidesTheDataPath()
    {
        AllowedLocations allowed = AllowedLocations.parse(Optional.of("file:///mnt/shared/, s3://bucket/extra"), "moraine.allowed-locations");
        assertThat(allowed.locations()).contains(List.of("/mnt/shared/", "s3://bucket/extra"));
        allowed.checkRegistered("/mnt/shared/x/../y.parquet", "/mnt/shared/x/../y.parquet", "/data/lake/", "read");
        allowed.checkNew("s3://bucket/extra/z.parquet", "/data/lake/", "/data/lake/", "register");
        assertThatThrownBy(() -> allowed.checkRegistered("/mnt/shared2/y.parquet", "/mnt/shared2/y.parquet", "/data/lake/", "read data file 1"))
                .isInstanceOf(FileOutsideAllowedLocationsException.class)
                .hasMessageContaining("/mnt/shared2/y.parquet")
                .hasMessageContaining("/mnt/shared/")
                .hasMessageContaining("moraine.allowed-locations");
        assertThat(AllowedLocations.parse(Optional.of(" "), "s").locations()).isEmpty();
        assertThatThrownBy(() -> AllowedLocations.parse(Optional.of("relative/dir"), "moraine.allowed-locations"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("moraine.allowed-locations");
    }
}
