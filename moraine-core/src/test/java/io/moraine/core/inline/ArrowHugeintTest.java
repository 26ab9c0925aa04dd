package io.moraine.core.inline;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.HexFormat;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** HUGEINT and UHUGEINT in DuckDB's lossless Arrow form: the field's metadata names the type, the 16 bytes hold it. */
class ArrowHugeintTest
{
    @Test
    void aFieldNamesItsTypeAsDuckDbsLosslessExportDoes()
    {
        Field hugeint = ArrowHugeint.field("h", true, ArrowHugeint.Kind.HUGEINT);
        assertThat(hugeint.getType()).isEqualTo(new ArrowType.FixedSizeBinary(16));
        assertThat(hugeint.getMetadata()).containsEntry("ARROW:extension:name", "arrow.opaque")
                .containsEntry("ARROW:extension:metadata", "{\"type_name\":\"hugeint\",\"vendor_name\":\"DuckDB\"}");
        assertThat(ArrowHugeint.kind(hugeint)).contains(ArrowHugeint.Kind.HUGEINT);
        assertThat(ArrowHugeint.kind(ArrowHugeint.field("u", false, ArrowHugeint.Kind.UHUGEINT))).contains(ArrowHugeint.Kind.UHUGEINT);
        // DuckDB's own JSON, keys in another order and spaced.
        Field spaced = new Field("u", new FieldType(true, new ArrowType.FixedSizeBinary(16), null, Map.of("ARROW:extension:name", "arrow.opaque",
                "ARROW:extension:metadata", "{ \"vendor_name\" : \"DuckDB\", \"type_name\" : \"uhugeint\" }")), null);
        assertThat(ArrowHugeint.kind(spaced)).contains(ArrowHugeint.Kind.UHUGEINT);
    }

    @Test
    void otherFieldsAreNotHugeints()
    {
        assertThat(ArrowHugeint.isHugeint(Field.nullable("d", new ArrowType.Decimal(38, 0, 128)))).as("the legacy DECIMAL(38,0) form").isFalse();
        assertThat(ArrowHugeint.isHugeint(Field.nullable("b", new ArrowType.FixedSizeBinary(16)))).isFalse();
        assertThat(ArrowHugeint.isHugeint(new Field("t", new FieldType(true, new ArrowType.FixedSizeBinary(8), null, Map.of(
                "ARROW:extension:name", "arrow.opaque", "ARROW:extension:metadata", "{\"type_name\":\"time_tz\",\"vendor_name\":\"DuckDB\"}")), null))).isFalse();
        assertThat(ArrowHugeint.isHugeint(new Field("o", new FieldType(true, new ArrowType.FixedSizeBinary(16), null, Map.of(
                "ARROW:extension:name", "arrow.opaque", "ARROW:extension:metadata", "{\"type_name\":\"hugeint\",\"vendor_name\":\"other\"}")), null))).isFalse();
    }

    @Test
    void valuesAreSixteenLittleEndianBytesOverTheWholeRange()
    {
        BigInteger two127 = BigInteger.ONE.shiftLeft(127);
        for (BigInteger value : new BigInteger[] {two127.negate(), BigInteger.ONE.negate(), BigInteger.ZERO, BigInteger.ONE, two127.subtract(BigInteger.ONE)}) {
            assertThat(ArrowHugeint.value(ArrowHugeint.bytes(value, ArrowHugeint.Kind.HUGEINT), ArrowHugeint.Kind.HUGEINT)).isEqualTo(value);
        }
        for (BigInteger value : new BigInteger[] {BigInteger.ZERO, BigInteger.TEN.pow(38), two127, BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE)}) {
            assertThat(ArrowHugeint.value(ArrowHugeint.bytes(value, ArrowHugeint.Kind.UHUGEINT), ArrowHugeint.Kind.UHUGEINT)).isEqualTo(value);
        }
        assertThat(HexFormat.of().formatHex(ArrowHugeint.bytes(BigInteger.valueOf(258), ArrowHugeint.Kind.HUGEINT))).isEqualTo("0201" + "00".repeat(14));
        assertThat(HexFormat.of().formatHex(ArrowHugeint.bytes(BigInteger.ONE.negate(), ArrowHugeint.Kind.HUGEINT))).isEqualTo("ff".repeat(16));
        // The same bytes are -1 as HUGEINT and 2^128 - 1 as UHUGEINT.
        assertThat(ArrowHugeint.value(ArrowHugeint.bytes(BigInteger.ONE.negate(), ArrowHugeint.Kind.HUGEINT), ArrowHugeint.Kind.UHUGEINT))
                .isEqualTo(ArrowHugeint.Kind.UHUGEINT.max());
        assertThatThrownBy(() -> ArrowHugeint.bytes(two127, ArrowHugeint.Kind.HUGEINT)).hasMessageContaining("out of the range of HUGEINT");
        assertThatThrownBy(() -> ArrowHugeint.bytes(BigInteger.ONE.negate(), ArrowHugeint.Kind.UHUGEINT)).hasMessageContaining("UHUGEINT");
    }
}
