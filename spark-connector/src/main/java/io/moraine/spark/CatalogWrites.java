package io.moraine.spark;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.MoraineException;
import io.moraine.core.write.CommitInfo;
import io.moraine.core.write.LakeOptions;
import io.moraine.core.write.WriteTransaction;

import org.apache.spark.util.SerializableConfiguration;

import java.util.function.Consumer;

/** The driver's commits: one {@link WriteTransaction} per Spark statement, its errors as Spark analysis errors. */
final class CatalogWrites
{
    static final String AUTHOR = "spark";

    private CatalogWrites() {}

    /** Begins at the head, makes the changes, commits them as one snapshot; nothing is committed when a change fails. */
    static long commit(MoraineCatalog catalog, String statement, Consumer<WriteTransaction> changes)
    {
        WriteTransaction transaction;
        try {
            transaction = WriteTransaction.begin(catalog);
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
        return commit(transaction, statement, changes);
    }

    static long commit(WriteTransaction transaction, String statement, Consumer<WriteTransaction> changes)
    {
        return commit(transaction, new CommitInfo(AUTHOR, statement, null), changes);
    }

    /** As {@link #commit(WriteTransaction, String, Consumer)}, recording {@code info} (its message names the statement). */
    static long commit(WriteTransaction transaction, CommitInfo info, Consumer<WriteTransaction> changes)
    {
        String statement = info.message();
        boolean committing = false;
        try {
            changes.accept(transaction);
            transaction.commitInfo(info);
            committing = true;
            return transaction.commit();
        }
        catch (MoraineException e) {
            if (!committing) {
                transaction.rollback();
            }
            throw SparkErrors.analysis("MORAINE_" + e.code().name(), "42000", statement + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Builds the write a statement runs over {@code transaction} (on the driver, before any task); a failure rolls the
     * transaction back and reaches Spark as its error.
     */
    static <T> T build(WriteTransaction transaction, java.util.function.Supplier<T> build)
    {
        try {
            return build.get();
        }
        catch (Exception e) {
            // AnalysisException included: SparkErrors throws it unchecked
            transaction.rollback();
            if (e instanceof MoraineException moraine) {
                throw SparkErrors.of(moraine);
            }
            throw e;
        }
    }

    /** The session's Hadoop configuration, broadcast for the executors' file writes. */
    static org.apache.spark.broadcast.Broadcast<org.apache.spark.util.SerializableConfiguration> hadoopConfiguration()
    {
        org.apache.spark.sql.SparkSession session = org.apache.spark.sql.SparkSession.active();
        return SerializableConfiguration.broadcast(session.sparkContext(), io.moraine.spark.files.LakeObjectFileSystems.configure(session.sessionState().newHadoopConf()));
    }

    static void setTableOption(MoraineCatalog catalog, String schema, String table, String key, String value, String qualifiedName)
    {
        try {
            LakeOptions.setForTable(catalog, schema, table, key, value);
        }
        catch (MoraineException e) {
            throw SparkErrors.analysis("MORAINE_" + e.code().name(), "42000", "setting " + key + " = '" + value + "' on " + qualifiedName + " failed: "
                    + e.getMessage(), e);
        }
    }
}
