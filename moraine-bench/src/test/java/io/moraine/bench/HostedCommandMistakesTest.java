package io.moraine.bench;

import io.moraine.cli.Main;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * bin/moraine's bench and trial on this module's class path (as bin/moraine runs them): Main finds them through
 * BenchCommands, and their usage mistakes exit with 2 naming the mistake, as every command's do.
 */
class HostedCommandMistakesTest
{
    record Outcome(int status, String out, String err) {}

    @Test
    void usageMistakesExitWithTwoAndNameTheMistake()
    {
        record Mistake(List<String> args, String message) {}
        List<Mistake> mistakes = List.of(
                new Mistake(List.of("bench", "nosuch"), "which benchmark?"),
                new Mistake(List.of("bench", "catalog", "--commits", "many"), "--commits takes a whole number"),
                new Mistake(List.of("trial"), "name the trial: crash or faults"));
        for (Mistake mistake : mistakes) {
            Outcome outcome = runInProcess(mistake.args());
            assertThat(outcome.status()).as("%s: %s", mistake.args(), outcome.err()).isEqualTo(2);
            assertThat(outcome.err()).as("%s", mistake.args()).contains("moraine " + mistake.args().getFirst() + ": " + mistake.message());
            assertThat(outcome.out()).as("%s", mistake.args()).isEmpty();
        }
    }

    static synchronized Outcome runInProcess(List<String> args)
    {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream capturedOut = new ByteArrayOutputStream();
        ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(capturedOut, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(capturedErr, true, StandardCharsets.UTF_8));
            int status = Main.run(args.toArray(String[]::new));
            return new Outcome(status, capturedOut.toString(StandardCharsets.UTF_8), capturedErr.toString(StandardCharsets.UTF_8));
        }
        finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
