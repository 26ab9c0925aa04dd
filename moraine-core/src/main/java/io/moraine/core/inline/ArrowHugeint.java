package io.moraine.core.inline;

import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Inlined HUGEINT and UHUGEINT values in Arrow, as DuckDB's lossless Arrow export writes them: a 16-byte fixed-size
 * binary holding the 128-bit integer little-endian (two's complement for HUGEINT), named by the {@code arrow.opaque}
 * extension with {@code {"type_name":"hugeint"|"uhugeint","vendor_name":"DuckDB"}}. DuckDB's default Arrow export
 * turns both types into DECIMAL(38,0), which holds neither UHUGEINT above 2^127 nor the meaning of the type; DuckDB's
 * Arrow import reads this form back as HUGEINT and UHUGEINT. Arrow Java has no extension class registered for
 * {@code arrow.opaque}, so the extension lives in the field metadata, which the inline schema keeps.
 *
 * <p>Inlined tables registered before this form existed hold such columns as {@code Decimal(38, 0)}; they keep that
 * form (the 16 data bytes are the same), and every reader accepts both.
 */
public final class ArrowHugeint
{
    public static final String EXTENSION_NAME = "arrow.opaque";
    public static final String VENDOR_NAME = "DuckDB";
    public static final int BYTE_WIDTH = 16;

    private static final String EXTENSION_NAME_KEY = "ARROW:extension:name";
    private static final String EXTENSION_METADATA_KEY = "ARROW:extension:metadata";
    private static final Pattern TYPE_NAME = Pattern.compile("\"type_name\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern VENDOR = Pattern.compile("\"vendor_name\"\\s*:\\s*\"([^\"]*)\"");
    private static final BigInteger UNSIGNED_RANGE = BigInteger.ONE.shiftLeft(128);

    /** Which of the two 128-bit integer types a field holds. */
    public enum Kind
    {
        HUGEINT("hugeint", true),
        UHUGEINT("uhugeint", false);

        private final String typeName;
        private final boolean signed;

        Kind(String typeName, boolean signed)
        {
            this.typeName = typeName;
            this.signed = signed;
        }

        /** DuckDB's {@code type_name} in the extension metadata. */
        public String typeName()
        {
            return typeName;
        }

        public boolean signed()
        {
            return signed;
        }

        public BigInteger min()
        {
            return signed ? BigInteger.ONE.shiftLeft(127).negate() : BigInteger.ZERO;
        }

        public BigInteger max()
        {
            return (signed ? BigInteger.ONE.shiftLeft(127) : UNSIGNED_RANGE).subtract(BigInteger.ONE);
        }
    }

    private ArrowHugeint() {}

    /** A field named {@code name} holding {@code kind} values. */
    public static Field field(String name, boolean nullable, Kind kind)
    {
        return new Field(name, new FieldType(nullable, new ArrowType.FixedSizeBinary(BYTE_WIDTH), null, metadata(kind)), null);
    }

    /** The field metadata that names {@code kind}, as DuckDB writes it. */
    public static Map<String, String> metadata(Kind kind)
    {
        Map<String, String> metadata = new HashMap<>();
        metadata.put(EXTENSION_NAME_KEY, EXTENSION_NAME);
        metadata.put(EXTENSION_METADATA_KEY, "{\"type_name\":\"" + kind.typeName() + "\",\"vendor_name\":\"" + VENDOR_NAME + "\"}");
        return metadata;
    }

    /** The kind a field holds; empty when it is not one of the two (a legacy {@code Decimal(38, 0)} column included). */
    public static Optional<Kind> kind(Field field)
    {
        if (!(field.getType() instanceof ArrowType.FixedSizeBinary binary) || binary.getByteWidth() != BYTE_WIDTH
                || !EXTENSION_NAME.equals(field.getMetadata().get(EXTENSION_NAME_KEY))) {
            return Optional.empty();
        }
        String extensionMetadata = field.getMetadata().getOrDefault(EXTENSION_METADATA_KEY, "");
        Matcher vendor = VENDOR.matcher(extensionMetadata);
        Matcher typeName = TYPE_NAME.matcher(extensionMetadata);
        if (!vendor.find() || !VENDOR_NAME.equals(vendor.group(1)) || !typeName.find()) {
            return Optional.empty();
        }
        for (Kind kind : Kind.values()) {
            if (kind.typeName().equals(typeName.group(1))) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code field} holds HUGEINT or UHUGEINT values in this form. */
    public static boolean isHugeint(Field field)
    {
        return kind(field).isPresent();
    }

    /** The value at {@code row} of a vector of this form (not NULL). */
    public static BigInteger value(FixedSizeBinaryVector vector, int row)
    {
        Kind kind = kind(vector.getField()).orElseThrow(() -> new IllegalArgumentException(
                "column " + vector.getField().getName() + " does not hold HUGEINT or UHUGEINT values"));
        return value(vector.get(row), kind);
    }

    /** The integer of 16 little-endian bytes. */
    public static BigInteger value(byte[] littleEndian, Kind kind)
    {
        if (littleEndian.length != BYTE_WIDTH) {
            throw new IllegalArgumentException("a 128-bit integer has 16 bytes, not " + littleEndian.length);
        }
        byte[] bigEndian = new byte[BYTE_WIDTH];
        for (int i = 0; i < BYTE_WIDTH; i++) {
            bigEndian[i] = littleEndian[BYTE_WIDTH - 1 - i];
        }
        return kind.signed() ? new BigInteger(bigEndian) : new BigInteger(1, bigEndian);
    }

    /** The 16 little-endian bytes of {@code value}, which must lie in the range of {@code kind}. */
    public static byte[] bytes(BigInteger value, Kind kind)
    {
        if (value.compareTo(kind.min()) < 0 || value.compareTo(kind.max()) > 0) {
            throw new IllegalArgumentException(value + " is out of the range of " + kind.name());
        }
        BigInteger twosComplement = value.signum() < 0 ? value.add(UNSIGNED_RANGE) : value;
        byte[] bigEndian = twosComplement.toByteArray();
        byte[] littleEndian = new byte[BYTE_WIDTH];
        for (int i = 0; i < BYTE_WIDTH && i < bigEndian.length; i++) {
            littleEndian[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return littleEndian;
    }
}
