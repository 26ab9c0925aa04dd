package io.moraine.spark;

import io.moraine.core.error.MoraineException;
import org.apache.spark.sql.AnalysisException;

/**
 * moraine's errors as Spark analysis errors: each names what was wrong and what to do. Error classes start with
 * {@code MORAINE_}; the SQL state is the nearest standard one. {@link AnalysisException} is checked in Java but not in
 * the Scala that calls the connector, so these methods throw it themselves, unchecked; callers write
 * {@code throw SparkErrors.x(...)} for the compiler's sake.
 */
final class SparkErrors
{
    private SparkErrors() {}

    static RuntimeException invalidSetting(String message)
    {
        return analysis("MORAINE_INVALID_SETTING", "42000", message);
    }

    static RuntimeException invalidTimeTravel(String message)
    {
        return analysis("MORAINE_INVALID_TIME_TRAVEL", "42K0E", message);
    }

    static RuntimeException readOnly(String operation)
    {
        return analysis("MORAINE_READ_ONLY", "0A000", "this moraine catalog is read-only (setting 'read-only' is true): " + operation
                + " is refused. Write through a catalog without that setting.");
    }

    static RuntimeException unsupported(String message)
    {
        return analysis("MORAINE_UNSUPPORTED", "0A000", message);
    }

    /** A moraine error met while resolving a table or planning a scan. */
    static RuntimeException of(MoraineException e)
    {
        if (e instanceof io.moraine.core.error.OperationInterruptedException) {
            // Thrown as an interruption, which Spark takes for what it is: a streaming query's stop() interrupts its thread
            // mid-batch and ends cleanly only on an InterruptedException (an AnalysisException would fail the query).
            InterruptedException interrupted = new InterruptedException(e.getMessage());
            interrupted.initCause(e);
            throw SparkErrors.<RuntimeException>sneaky(interrupted);
        }
        return analysis("MORAINE_" + e.code().name(), "42000", e.getMessage(), e);
    }

    static RuntimeException analysis(String errorClass, String sqlState, String message)
    {
        return analysis(errorClass, sqlState, message, null);
    }

    static RuntimeException analysis(String errorClass, String sqlState, String message, Throwable cause)
    {
        throw SparkErrors.<RuntimeException>sneaky(new AnalysisException(errorClass, sqlState, message, scala.collection.immutable.Map$.MODULE$.empty(), scala.Option.apply(cause),
                scala.Option.apply("[" + errorClass + "] " + message)));
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable e)
            throws E
    {
        throw (E) e;
    }
}
