package io.moraine.core.error;

/**
 * Another process opened the store read-write and took over as its one writer; this handle can no longer commit.
 */
public class FencedException
        extends MoraineException
{
    public FencedException(String store, Throwable cause)
    {
        super(ErrorCode.FENCED, "FENCED: another process opened store " + store + " read-write and is now its writer; "
                + "this handle can no longer commit. Re-open the catalog to continue (in writer mode EXCLUSIVE only one "
                + "read-write process may use a store at a time; open the others read-only, or use writer mode HANDOFF, "
                + "where the next commit takes the writer back).", cause);
    }
}
