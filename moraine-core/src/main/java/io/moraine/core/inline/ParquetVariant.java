package io.moraine.core.inline;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inlined VARIANT values in Arrow: the canonical {@code arrow.parquet.variant} extension, a
 * {@code struct<metadata: binary, value: binary>} holding the Variant spec's binary encoding (unshredded). Arrow Java
 * has no extension class for it, so the extension is named in the field metadata, which the inline schema keeps.
 */
public final class ParquetVariant
{
    public static final String EXTENSION_NAME = "arrow.parquet.variant";
    public static final String METADATA = "metadata";
    public static final String VALUE = "value";

    private static final String EXTENSION_NAME_KEY = "ARROW:extension:name";
    private static final String EXTENSION_METADATA_KEY = "ARROW:extension:metadata";

    private ParquetVariant() {}

    /** A VARIANT field named {@code name}: the extension's storage struct with both binaries required. */
    public static Field field(String name, boolean nullable)
    {
        Map<String, String> metadata = new HashMap<>();
        metadata.put(EXTENSION_NAME_KEY, EXTENSION_NAME);
        metadata.put(EXTENSION_METADATA_KEY, "");
        return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null, metadata), List.of(
                Field.notNullable(METADATA, ArrowType.Binary.INSTANCE),
                Field.notNullable(VALUE, ArrowType.Binary.INSTANCE)));
    }

    public static boolean isVariant(Field field)
    {
        return EXTENSION_NAME.equals(field.getMetadata().get(EXTENSION_NAME_KEY));
    }
}
