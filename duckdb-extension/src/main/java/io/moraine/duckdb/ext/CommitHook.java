package io.moraine.duckdb.ext;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.tx.CommitListener;

/**
 * A fault-injection hook for crash trials ({@code bin/moraine trial crash --writers 2}): system property
 * {@value #PROPERTY} names a {@link CommitListener} class (public, with a public no-argument constructor) that
 * observes every commit of a store attached read-write in this process at the moment its batch is ready and not yet
 * written. Unset (always, outside trials): no listener.
 */
final class CommitHook
{
    static final String PROPERTY = "moraine.test.commit-listener";

    private CommitHook() {}

    static CommitListener fromSystemProperty()
    {
        String name = System.getProperty(PROPERTY);
        if (name == null || name.isEmpty()) {
            return CommitListener.NONE;
        }
        try {
            return (CommitListener) Class.forName(name, true, CommitHook.class.getClassLoader()).getDeclaredConstructor().newInstance();
        }
        catch (ReflectiveOperationException | ClassCastException e) {
            throw new InvalidArgumentException("system property " + PROPERTY + " names " + name + ", which is not a CommitListener class with a public "
                    + "no-argument constructor on the class path (" + e + "); unset it outside crash trials");
        }
    }
}
