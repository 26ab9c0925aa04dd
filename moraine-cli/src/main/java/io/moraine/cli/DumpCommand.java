package io.moraine.cli;

import io.moraine.core.catalog.CatalogDump;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/** {@code bin/moraine dump --store <store uri> --table <ducklake table> [--format csv]}. */
final class DumpCommand
{
    static final String USAGE = "dump --store <store-uri> [--store-timeout 30s] --table <ducklake_table | ducklake_inlined_data_<t>_<v> | ducklake_inlined_delete_<t>> [--format csv]";

    private DumpCommand() {}

    static void run(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("store", CommandLine.STORE_TIMEOUT, "table", "format"));
        String format = line.option("format").orElse("csv");
        if (!format.equals("csv")) {
            throw new IllegalArgumentException("unsupported --format " + format + "; dump writes csv");
        }
        String table = line.required("table");
        if (table.matches("ducklake_inlined_data_\\d+_\\d+|ducklake_inlined_delete_\\d+")) {
            // Inlined tables hold user values of any DuckDB type: DuckDB itself prints them, read through the extension.
            DuckDbCommand.copyCsv(line.required("store"), line.storeOptions(), table);
            return;
        }
        TableKind kind = TableKind.fromTableName(table);
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(line.required("store")), OpenMode.READ_ONLY, line.storeOptions())) {
            Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
            CatalogDump.writeCsv(catalog, kind, out);
            out.flush();
        }
    }
}
