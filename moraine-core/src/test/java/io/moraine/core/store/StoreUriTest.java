package io.moraine.core.store;

import io.moraine.core.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoreUriTest
{
    @Test
    void localPathsAndFileUrisNameADirectory()
    {
        StoreUri plain = StoreUri.parse("/var/lib/lake");
        assertThat(plain.scheme()).isEqualTo(StoreUri.Scheme.FILE);
        assertThat(plain.objectStoreUrl()).isEqualTo("file:///");
        assertThat(plain.dbPath()).isEqualTo("var/lib/lake");
        assertThat(StoreUri.parse("file:///var/lib/lake/").dbPath()).isEqualTo("var/lib/lake");
        assertThat(StoreUri.parse("./lake").dbPath()).isEqualTo(Path.of("lake").toAbsolutePath().toString().substring(1));
    }

    @Test
    void memoryStoresMayBeNamed()
    {
        assertThat(StoreUri.parse("memory://").memoryName()).isEmpty();
        assertThat(StoreUri.parse("memory:///").memoryName()).isEmpty();
        assertThat(StoreUri.parse("memory://shared").memoryName()).isEqualTo("shared");
        assertThat(StoreUri.parse("memory://shared").scheme()).isEqualTo(StoreUri.Scheme.MEMORY);
    }

    @Test
    void s3UrisSplitBucketAndPrefix()
    {
        StoreUri uri = StoreUri.parse("s3://lake-bucket/warehouse/catalog/");
        assertThat(uri.objectStoreUrl()).isEqualTo("s3://lake-bucket");
        assertThat(uri.dbPath()).isEqualTo("warehouse/catalog");
        assertThat(StoreUri.parse("s3://lake-bucket").dbPath()).isEmpty();
    }

    @Test
    void aStoreUnderAnotherIsASubDirectoryOrALongerPrefix()
    {
        assertThat(StoreUri.parse("/var/lib/lake").resolve("schemas/s1").dbPath()).isEqualTo("var/lib/lake/schemas/s1");
        StoreUri s3 = StoreUri.parse("s3://lake-bucket/catalog").resolve("schemas/s1");
        assertThat(s3.objectStoreUrl()).isEqualTo("s3://lake-bucket");
        assertThat(s3.dbPath()).isEqualTo("catalog/schemas/s1");
        assertThat(s3.text()).isEqualTo("s3://lake-bucket/catalog/schemas/s1");
        assertThat(StoreUri.parse("s3://lake-bucket").resolve("schemas/s1").dbPath()).isEqualTo("schemas/s1");
        StoreUri memory = StoreUri.parse("memory://shared").resolve("schemas/s1");
        assertThat(memory.memoryName()).isEqualTo("shared");
        assertThat(memory.dbPath()).isEqualTo("moraine/schemas/s1");
        assertThatThrownBy(() -> StoreUri.parse("/var/lib/lake").resolve("/abs"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("must be relative");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "gs://bucket/x", "s3://", "s3://UPPER/x", "file://host/path", "file://relative",
            "memory://a/b", "ftp:thing", "/"})
    void malformedUrisAreRefusedWithTheAcceptedForms(String text)
    {
        assertThatThrownBy(() -> StoreUri.parse(text))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(text.isBlank() ? "empty" : text.strip());
    }
}
