package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.write.ColumnDefinition;
import io.moraine.core.write.InlinedArrowSchema;
import io.moraine.core.write.NewTable;
import io.moraine.core.write.WriteTransaction;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/** A lake written through the core's write API is one DuckDB reads and keeps writing. */
class CoreWriteSmokeTest
{
    @TempDir
    Path temp;

    @Test
    void duckDbReadsAndKeepsWritingWhatTheCoreWrote()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = temp.resolve("data");
        Files.createDirectories(data);
        String attach = "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/')";
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, attach);
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE);
                RootAllocator allocator = new RootAllocator()) {
            WriteTransaction.begin(catalog)
                    .createSchema("s")
                    .createTable(NewTable.of("s", "t", List.of(ColumnDefinition.of("a", "int32"), ColumnDefinition.of("b", "varchar"))))
                    .commit();
            var columns = catalog.at(catalog.headSnapshotId().orElseThrow()).model().columns(catalog.at(catalog.headSnapshotId().orElseThrow()).model().table("s", "t").orElseThrow()).columns();
            try (VectorSchemaRoot rows = VectorSchemaRoot.create(InlinedArrowSchema.of(columns), allocator)) {
                IntVector a = (IntVector) rows.getVector("a");
                VarCharVector b = (VarCharVector) rows.getVector("b");
                a.allocateNew(3);
                b.allocateNew(3);
                for (int i = 0; i < 3; i++) {
                    a.set(i, i + 1);
                    b.set(i, ("v" + i).getBytes(StandardCharsets.UTF_8));
                }
                b.setNull(2);
                rows.setRowCount(3);
                WriteTransaction.begin(catalog).insertInlined("s", "t", rows).commit();
            }
        }
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, attach);
            assertThat(query(connection, "SELECT a, b FROM lake.s.t ORDER BY a")).containsExactly(List.of("1", "v0"), List.of("2", "v1"), java.util.Arrays.asList("3", null));
            execute(connection, "INSERT INTO lake.s.t VALUES (4, 'duck')");
            assertThat(query(connection, "SELECT a, b, rowid FROM lake.s.t ORDER BY a")).hasSize(4);
            System.out.println(query(connection, "SELECT * FROM lake.s.t ORDER BY a"));
        }
    }
}
