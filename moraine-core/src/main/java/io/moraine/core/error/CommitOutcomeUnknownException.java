package io.moraine.core.error;

/** A commit was submitted but not acknowledged: it may or may not have landed. Reconcile before resubmitting. */
public class CommitOutcomeUnknownException
        extends MoraineException
{
    public CommitOutcomeUnknownException(String message)
    {
        super(ErrorCode.COMMIT_OUTCOME_UNKNOWN, message, null);
    }

    public CommitOutcomeUnknownException(String message, Throwable cause)
    {
        super(ErrorCode.COMMIT_OUTCOME_UNKNOWN, message, cause);
    }
}
