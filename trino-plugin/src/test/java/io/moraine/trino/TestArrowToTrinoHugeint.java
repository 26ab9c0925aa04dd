package io.moraine.trino;

import io.moraine.core.inline.ArrowHugeint;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static io.trino.spi.StandardErrorCode.NUMERIC_VALUE_OUT_OF_RANGE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Inlined HUGEINT and UHUGEINT in their lossless 16-byte form read into Trino's decimal(38,0), as the legacy form reads. */
class TestArrowToTrinoHugeint
{
    private static final DecimalType DECIMAL_38 = DecimalType.createDecimalType(38, 0);

    @Test
    void hugeintsReadAsTheirDecimal()
    {
        BigInteger min = ArrowHugeint.Kind.HUGEINT.min();
        BigInteger max = ArrowHugeint.Kind.HUGEINT.max();
        try (RootAllocator allocator = new RootAllocator();
                FixedSizeBinaryVector vector = vector(allocator, ArrowHugeint.Kind.HUGEINT, min, BigInteger.valueOf(-1), null, max)) {
            Block block = ArrowToTrino.block(DECIMAL_38, null, null, vector, 4);
            assertThat(DECIMAL_38.getObject(block, 0)).isEqualTo(Int128.valueOf(min));
            assertThat(DECIMAL_38.getObject(block, 1)).isEqualTo(Int128.valueOf(-1));
            assertThat(block.isNull(2)).isTrue();
            assertThat(DECIMAL_38.getObject(block, 3)).isEqualTo(Int128.valueOf(max));
        }
    }

    @Test
    void uhugeintsReadUpTo2To127AndFailBeyond()
    {
        BigInteger below = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
        try (RootAllocator allocator = new RootAllocator();
                FixedSizeBinaryVector fits = vector(allocator, ArrowHugeint.Kind.UHUGEINT, BigInteger.ZERO, below);
                FixedSizeBinaryVector beyond = vector(allocator, ArrowHugeint.Kind.UHUGEINT, ArrowHugeint.Kind.UHUGEINT.max())) {
            Block block = ArrowToTrino.block(DECIMAL_38, null, null, fits, 2);
            assertThat(DECIMAL_38.getObject(block, 0)).isEqualTo(Int128.valueOf(0));
            assertThat(DECIMAL_38.getObject(block, 1)).isEqualTo(Int128.valueOf(below));
            assertThatThrownBy(() -> ArrowToTrino.block(DECIMAL_38, null, null, beyond, 1))
                    .isInstanceOf(TrinoException.class)
                    .hasMessageContaining(ArrowHugeint.Kind.UHUGEINT.max().toString())
                    .satisfies(e -> assertThat(((TrinoException) e).getErrorCode()).isEqualTo(NUMERIC_VALUE_OUT_OF_RANGE.toErrorCode()));
        }
    }

    private static FixedSizeBinaryVector vector(RootAllocator allocator, ArrowHugeint.Kind kind, BigInteger... values)
    {
        FixedSizeBinaryVector vector = (FixedSizeBinaryVector) ArrowHugeint.field("v", true, kind).createVector(allocator);
        vector.allocateNew(values.length);
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                vector.setNull(i);
            }
            else {
                vector.set(i, ArrowHugeint.bytes(values[i], kind));
            }
        }
        vector.setValueCount(values.length);
        return vector;
    }
}
