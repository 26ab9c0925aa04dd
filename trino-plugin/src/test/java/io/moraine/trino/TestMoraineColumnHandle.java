package io.moraine.trino;

import io.moraine.core.scan.HiddenColumn;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

class TestMoraineColumnHandle
{
    @Test
    void anIntervalIsKnownByTheCoresTypeNames()
    {
        assertThat(handle("interval").isInterval()).isTrue();
        assertThat(handle("INTERVAL").isInterval()).isTrue();
        assertThat(handle("varchar").isInterval()).isFalse();
        assertThat(handle("decimal(9,2)").isInterval()).isFalse();
        assertThat(handle("struct").isInterval()).isFalse();
    }

    @Test
    void hiddenColumnsCarryDuckLakeTypeNames()
    {
        for (HiddenColumn column : HiddenColumn.values()) {
            assertThat(MoraineColumnHandle.hidden(column).duckLakeType()).isEqualTo(column.isText() ? "varchar" : "int64");
        }
    }

    private static MoraineColumnHandle handle(String duckLakeType)
    {
        return new MoraineColumnHandle(1, "c", VARCHAR, duckLakeType, Optional.empty());
    }
}
