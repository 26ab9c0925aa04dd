package io.moraine.cli;

import io.moraine.cli.cat.CsvWriter;
import io.moraine.cli.cat.DuckDbText;
import io.moraine.cli.cat.TableReader;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.CatalogModel;
import io.moraine.core.catalog.LakeSchema;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.row.Row;
import io.moraine.core.scan.Scan;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.types.TableColumn;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code bin/moraine cat --store <store uri> <schema>.<table> [--snapshot N] [--data-path P]}: a table's rows at a
 * snapshot as CSV, read with moraine-core's Scan API, parquet-java and the inline reader alone (no engine).
 */
final class CatCommand
{
    static final String USAGE = "cat --store <store-uri> [--store-timeout 30s] <schema>.<table> [--snapshot N] [--data-path P]";

    private CatCommand() {}

    static void run(String[] args)
            throws IOException
    {
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        run(args, out);
        out.flush();
    }

    /** Writes the CSV to {@code out}; an unknown table, schema or snapshot is refused before anything is written. */
    static void run(String[] args, Writer out)
    {
        CommandLine line = CommandLine.parse(args, Set.of("store", CommandLine.STORE_TIMEOUT, "snapshot", "data-path"));
        String table = tableArgument(line.positional());
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(line.required("store")), OpenMode.READ_ONLY, line.storeOptions());
                CatalogSnapshot snapshot = line.option("snapshot").map(id -> catalog.at(snapshotId(id))).orElseGet(catalog::latest)) {
            Scan scan = ScanBuilder.forTable(snapshot, tableId(snapshot, table)).withDataPath(line.option("data-path")).build();
            TableReader reader = new TableReader(snapshot, scan, LocalFileSystem.INSTANCE);
            CsvWriter csv = new CsvWriter(out);
            List<TableColumn> columns = reader.columns();
            csv.writeLine(columns.stream().map(TableColumn::name).toList());
            reader.read(row -> {
                List<String> fields = new ArrayList<>(row.length);
                for (int i = 0; i < row.length; i++) {
                    fields.add(DuckDbText.text(columns.get(i).type(), row[i]));
                }
                csv.writeLine(fields);
            });
        }
    }

    private static String tableArgument(List<String> positional)
    {
        if (positional.size() != 1 || !positional.getFirst().contains(".")) {
            throw new IllegalArgumentException("name one table as <schema>.<table> (e.g. main.events); usage: bin/moraine " + USAGE);
        }
        return positional.getFirst();
    }

    private static long snapshotId(String text)
    {
        try {
            return Long.parseLong(text);
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("--snapshot takes a snapshot id (a whole number), not '" + text + "'");
        }
    }

    /** The id of {@code schema.table} at the snapshot; refused naming what exists there instead. */
    private static long tableId(CatalogSnapshot snapshot, String qualified)
    {
        int dot = qualified.indexOf('.');
        String schemaName = qualified.substring(0, dot);
        String tableName = qualified.substring(dot + 1);
        CatalogModel model = snapshot.model();
        LakeSchema schema = model.schema(schemaName).orElseThrow(() -> new NotFoundException("schema '" + schemaName + "' does not exist at snapshot "
                + snapshot.id() + "; its schemas are " + names(model.schemas().stream().map(LakeSchema::name).toList())));
        return model.table(schemaName, tableName).map(LakeTable::id).orElseThrow(() -> new NotFoundException("table '"
                + qualified + "' does not exist at snapshot " + snapshot.id() + "; the tables of schema " + schemaName + " there are "
                + names(model.tables(schema).stream().map(LakeTable::name).toList()) + " (pick another --snapshot to read a table of another time)"));
    }

    private static String names(List<String> unsorted)
    {
        List<String> names = unsorted.stream().sorted().toList();
        return names.isEmpty() ? "(none)" : String.join(", ", names);
    }
}
