package io.moraine.core.error;

/**
 * A commit lost the race for the head snapshot and could not be rebased. The message always contains the word
 * "conflict": DuckLake decides whether to retry a commit by that substring, so the text is part of the contract.
 */
public class CommitConflictException
        extends MoraineException
{
    public CommitConflictException(String message)
    {
        super(ErrorCode.COMMIT_CONFLICT, withConflictWord(message), null);
    }

    private static String withConflictWord(String message)
    {
        return message.toLowerCase(java.util.Locale.ROOT).contains("conflict") ? message : "commit conflict: " + message;
    }
}
