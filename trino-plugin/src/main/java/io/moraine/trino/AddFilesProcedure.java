package io.moraine.trino;

import io.moraine.core.error.MoraineException;
import io.moraine.core.write.maintenance.AddFilesOptions;
import io.moraine.core.write.maintenance.LakeMaintenance;
import io.moraine.files.TrinoLakeFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.type.ArrayType;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code CALL lake.system.add_files(schema_name, table_name, paths, allow_missing, ignore_extra_columns)}: registers
 * existing Parquet files with a table, as DuckLake's {@code ducklake_add_data_files} does (the core's
 * {@link LakeMaintenance#addDataFiles}), in one commit.
 */
final class AddFilesProcedure
{
    private static final MethodHandle ADD_FILES;

    static {
        try {
            ADD_FILES = MethodHandles.lookup().findVirtual(AddFilesProcedure.class, "addFiles", MethodType.methodType(void.class, ConnectorSession.class,
                    String.class, String.class, List.class, boolean.class, boolean.class));
        }
        catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MoraineCatalogHolder holder;
    private final TrinoFileSystemFactory fileSystemFactory;

    AddFilesProcedure(MoraineCatalogHolder holder, TrinoFileSystemFactory fileSystemFactory)
    {
        this.holder = holder;
        this.fileSystemFactory = fileSystemFactory;
    }

    Procedure procedure()
    {
        return new Procedure("system", "add_files", List.of(
                new Procedure.Argument("SCHEMA_NAME", VARCHAR),
                new Procedure.Argument("TABLE_NAME", VARCHAR),
                new Procedure.Argument("PATHS", new ArrayType(VARCHAR)),
                new Procedure.Argument("ALLOW_MISSING", BOOLEAN, false, false),
                new Procedure.Argument("IGNORE_EXTRA_COLUMNS", BOOLEAN, false, false)),
                ADD_FILES.bindTo(this));
    }

    public void addFiles(ConnectorSession session, String schema, String table, List<?> paths, boolean allowMissing, boolean ignoreExtraColumns)
    {
        if (schema == null || table == null || paths == null || paths.isEmpty() || paths.contains(null)) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "add_files takes a schema_name, a table_name and a non-empty array of file paths (no NULL)");
        }
        try {
            new LakeMaintenance(holder.writer(), new TrinoLakeFileSystem(fileSystemFactory.create(session)))
                    .addDataFiles(schema, table, paths.stream().map(String.class::cast).toList(), new AddFilesOptions(allowMissing, ignoreExtraColumns));
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }
}
