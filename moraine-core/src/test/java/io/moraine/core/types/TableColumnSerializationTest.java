package io.moraine.core.types;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Columns and schemas survive Java serialization (engines ship them to their workers), defaults and nesting included. */
class TableColumnSerializationTest
{
    @Test
    void aSchemaWithDefaultsAndNestedColumnsRoundTrips()
            throws Exception
    {
        TableColumn field = new TableColumn(3, "x", DuckLakeType.of(PrimitiveKind.INT32), Optional.of("7"), false);
        TableSchema schema = new TableSchema(List.of(
                new TableColumn(1, "a", DuckLakeType.of(PrimitiveKind.VARCHAR), Optional.of("hello"), true),
                new TableColumn(2, "s", new DuckLakeType.StructOf(List.of(field)), Optional.empty(), true)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(schema);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(schema);
        }
    }
}
