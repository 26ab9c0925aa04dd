package io.moraine.spark;

import io.moraine.core.catalog.CatalogModel;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.MoraineException;
import io.moraine.core.write.WriteTransaction;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.DeltaWriteBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.SupportsDelta;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.lang.ref.Cleaner;

/**
 * A DELETE, UPDATE or MERGE on a moraine table in Spark's delta form (as Iceberg's position-delta operation): its
 * write transaction begins when Spark builds the operation, and the rows are scanned at that transaction's snapshot, so
 * that the (data file id, position) and row ids the scan reports are what the core's {@code deleteRows} takes and a
 * concurrent change of the same rows fails the commit as a conflict. Rows are identified by {@code _row_id}; the
 * metadata {@code _file_id} and {@code _pos} say where a file row sits (both NULL for an inlined row). Updates are
 * updates, not delete and insert: the new version keeps the row id. An operation Spark drops unwritten (an
 * {@code EXPLAIN}, a failed plan) has its transaction rolled back once it is garbage (its batch write keeps it
 * reachable while Spark writes).
 */
final class MoraineRowLevelOperation
        implements SupportsDelta
{
    static final String FILE_ID = "_file_id";
    static final String POSITION = "_pos";
    static final String ROW_ID = "_row_id";
    private static final Cleaner ABANDONED = Cleaner.create();

    private final MoraineTable table;
    private final Command command;
    private final WriteTransaction transaction;

    private MoraineRowLevelOperation(MoraineTable table, Command command, WriteTransaction transaction)
    {
        this.table = table;
        this.command = command;
        this.transaction = transaction;
    }

    /** Begins the statement's transaction at the lake's head; refused on a read-only catalog before the store is opened for writing. */
    static MoraineRowLevelOperation begin(MoraineTable loaded, Command command)
    {
        String statement = statement(command, loaded);
        if (loaded.settings().readOnly()) {
            throw SparkErrors.readOnly(statement);
        }
        for (String identity : java.util.List.of(FILE_ID, POSITION, ROW_ID)) {
            if (loaded.tableSchema().columns().stream().anyMatch(column -> column.name().equalsIgnoreCase(identity))) {
                throw SparkErrors.unsupported(statement + " is refused: the table has a column named " + identity + ", which hides the metadata column "
                        + "Spark's row-level operations identify rows by; rename the column (ALTER TABLE ... RENAME COLUMN) or change the rows through DuckDB or Trino");
            }
        }
        io.moraine.core.catalog.MoraineCatalog writer = MoraineSparkCatalog.writer(loaded.settings(), loaded.catalogName());
        WriteTransaction transaction;
        try {
            SparkSession session = SparkSession.active();
            transaction = WriteTransaction.begin(writer, new HadoopLakeFileSystem(io.moraine.spark.files.LakeObjectFileSystems.configure(session.sessionState().newHadoopConf())));
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
        try (CatalogSnapshot snapshot = writer.at(transaction.readSnapshotId())) {
            CatalogModel model = snapshot.model();
            var lakeTable = model.table(loaded.schemaName(), loaded.tableName()).orElseThrow(() -> SparkErrors.analysis("MORAINE_TABLE_CHANGED", "40001",
                    "table " + loaded.name() + " was dropped while " + statement + " was planned"));
            MoraineTable current = new MoraineTable(loaded.settings(), loaded.catalogName(), loaded.schemaName(), loaded.tableName(), lakeTable.id(),
                    snapshot.id(), model.columns(lakeTable));
            if (!current.schema().catalogString().equals(loaded.schema().catalogString())) {
                throw SparkErrors.analysis("MORAINE_TABLE_CHANGED", "40001", "table " + loaded.name() + " changed while " + statement
                        + " was planned (its columns are now " + current.schema().simpleString() + "); run the statement again");
            }
            MoraineRowLevelOperation operation = new MoraineRowLevelOperation(current, command, transaction);
            ABANDONED.register(operation, new Rollback(transaction));
            return operation;
        }
        catch (RuntimeException e) {
            transaction.rollback();
            if (e instanceof MoraineException moraine) {
                throw SparkErrors.of(moraine);
            }
            throw e;
        }
    }

    static String statement(Command command, MoraineTable table)
    {
        return switch (command) {
            case DELETE -> "DELETE FROM " + table.name();
            case UPDATE -> "UPDATE " + table.name();
            case MERGE -> "MERGE INTO " + table.name();
        };
    }

    @Override
    public String description()
    {
        return "moraine " + statement(command, table) + " at snapshot " + table.snapshotId();
    }

    @Override
    public Command command()
    {
        return command;
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options)
    {
        return new MoraineScanBuilder(table);
    }

    @Override
    public NamedReference[] rowId()
    {
        return new NamedReference[] {Expressions.column(ROW_ID)};
    }

    @Override
    public NamedReference[] requiredMetadataAttributes()
    {
        return new NamedReference[] {Expressions.column(FILE_ID), Expressions.column(POSITION)};
    }

    @Override
    public boolean representUpdateAsDeleteAndInsert()
    {
        return false;
    }

    @Override
    public DeltaWriteBuilder newWriteBuilder(LogicalWriteInfo info)
    {
        return new DeltaWriteBuilder()
        {
            @Override
            public DeltaWrite build()
            {
                return new DeltaWrite()
                {
                    @Override
                    public String description()
                    {
                        return MoraineRowLevelOperation.this.description();
                    }

                    @Override
                    public DeltaBatchWrite toBatch()
                    {
                        return batch(info);
                    }
                };
            }
        };
    }

    private DeltaBatchWrite batch(LogicalWriteInfo info)
    {
        return CatalogWrites.build(transaction, () -> {
            // a DELETE writes no rows: its table may hold types Spark cannot write
            WriteRecipe recipe = command == Command.DELETE ? null : WriteRecipe.of(transaction.dataFileLayout(table.schemaName(), table.tableName()), table.name());
            StructType rows = info.schema();
            if (rows.fields().length > 0 && !rows.catalogString().equals(table.schema().catalogString())) {
                throw SparkErrors.analysis("MORAINE_TABLE_CHANGED", "40001", "the rows " + statement(command, table) + " writes are " + rows.simpleString()
                        + ", not the table's columns " + table.schema().simpleString() + "; run the statement again");
            }
            StructType metadata = info.metadataSchema().orElseThrow();
            StructType rowIds = info.rowIdSchema().orElseThrow();
            MoraineDeltaWriter.RowIdentity identity = new MoraineDeltaWriter.RowIdentity(metadata.fieldIndex(FILE_ID), metadata.fieldIndex(POSITION),
                    rowIds.fieldIndex(ROW_ID));
            return new MoraineDeltaBatchWrite(this, table, statement(command, table) + " (Spark)", transaction, recipe, CatalogWrites.hadoopConfiguration(),
                    io.moraine.core.write.InsertInlining.of(transaction, table.schemaName(), table.tableName()), identity);
        });
    }

    /** Rolls back a transaction no write committed or aborted (run once its operation is garbage; a no-op on an ended one). */
    private record Rollback(WriteTransaction transaction)
            implements Runnable
    {
        @Override
        public void run()
        {
            try {
                transaction.rollback();
            }
            catch (MoraineException | IllegalStateException ignored) {
                // committed or rolled back already
            }
        }
    }

    /** Builds the operation once Spark asks for it (the transaction begins then). */
    record Builder(MoraineTable table, Command command)
            implements org.apache.spark.sql.connector.write.RowLevelOperationBuilder
    {
        @Override
        public RowLevelOperation build()
        {
            return begin(table, command);
        }
    }
}
