package io.moraine.cli;

import java.io.PrintStream;

/**
 * One progress line on standard error, redrawn in place, when standard error is a terminal ({@code bin/moraine} sets
 * {@code -Dmoraine.progress=true} when it is); otherwise it prints nothing, so piped and logged output stays clean.
 */
final class TerminalProgress
        implements AutoCloseable
{
    static final String ENABLED_PROPERTY = "moraine.progress";
    private static final int BAR_WIDTH = 30;

    private final PrintStream out;
    private final String title;
    private boolean drawn;

    private TerminalProgress(PrintStream out, String title)
    {
        this.out = out;
        this.title = title;
    }

    /** A progress line titled {@code title}; silent unless standard error is a terminal. */
    static TerminalProgress start(String title)
    {
        return new TerminalProgress(Boolean.getBoolean(ENABLED_PROPERTY) ? System.err : null, title);
    }

    /** {@code done} of {@code total} steps, {@code what} the one under way. */
    void update(int done, int total, String what)
    {
        if (out == null) {
            return;
        }
        int whole = Math.max(total, done);
        int filled = whole == 0 ? BAR_WIDTH : BAR_WIDTH * done / whole;
        String line = String.format("%s [%s%s] %d/%d %s", title, "#".repeat(filled), "-".repeat(BAR_WIDTH - filled), done, whole, what);
        // \r back to the line's start, the line, then erase what a longer previous line left (ANSI EL).
        out.print("\r" + line + "\u001b[K");
        out.flush();
        drawn = true;
    }

    /** Erases the line, so that what prints next starts on a clean line. */
    @Override
    public void close()
    {
        if (out != null && drawn) {
            out.print("\r\u001b[K");
            out.flush();
        }
    }
}
