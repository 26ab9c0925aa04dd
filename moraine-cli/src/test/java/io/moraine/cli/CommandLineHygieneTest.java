package io.moraine.cli;

import io.moraine.cli.CommandMistakesTest.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.moraine.cli.CommandMistakesTest.runInProcess;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/moraine help}, {@code <command> --help} for every command, and the exit statuses: 0 done, 1 failed, 2 a
 * usage error (an unknown command or option, a missing value), each printed on standard error without touching a store.
 */
class CommandLineHygieneTest
{
    /** Commands whose options CommandHelp explains (a command added without an entry shows its summary alone). */
    private static final List<String> EXPLAINED = List.of("help", "import", "dump", "cat", "verify", "flush", "duckdb", "trino", "trino-query",
            "spark-sql", "demo", "bench", "rowsum", "tiny-files", "trial");
    private static final Pattern OPTION = Pattern.compile("--[a-z][a-z0-9-]*");

    @TempDir
    Path temp;

    @Test
    void helpListsEveryCommandAndTheExitStatuses()
    {
        Outcome outcome = runInProcess(List.of("help"));
        assertThat(outcome.status()).isZero();
        assertThat(outcome.err()).isEmpty();
        assertThat(Main.commandNames()).containsAll(EXPLAINED);
        for (String name : Main.commandNames()) {
            assertThat(outcome.out()).contains("\n  " + name + " ");
        }
        assertThat(outcome.out()).contains("exit status: 0 done, 1 failed, 2 usage error");
        assertThat(runInProcess(List.of())).isEqualTo(outcome);
    }

    @Test
    void everyCommandExplainsEachOptionOfItsUsageWithItsDefault()
    {
        int options = 0;
        for (String name : EXPLAINED) {
            Outcome outcome = runInProcess(List.of(name, "--help"));
            assertThat(outcome.status()).as(name).isZero();
            assertThat(outcome.err()).as(name).isEmpty();
            String help = outcome.out();
            assertThat(help).as(name).contains("usage: bin/moraine " + name).contains("exit status: 0 done, 1 failed, 2 usage error");
            assertThat(runInProcess(List.of("help", name))).as("help %s", name).isEqualTo(outcome);
            if (name.equals("bench")) {
                continue;
            }
            String usage = help.lines().filter(text -> text.startsWith("usage: ")).findFirst().orElseThrow();
            Matcher option = OPTION.matcher(usage);
            while (option.find()) {
                String explained = help.lines().filter(text -> text.startsWith("  " + option.group() + " ")).findFirst().orElse(null);
                assertThat(explained).as("%s explains %s:%n%s", name, option.group(), help).isNotNull();
                boolean optional = Pattern.compile("\\[" + option.group() + "[ \\]]").matcher(usage).find();
                if (optional && !explained.contains("implies")) {
                    // The default is on the option's line or its continuation lines.
                    String block = help.substring(help.indexOf(explained), Math.min(help.length(), help.indexOf(explained) + explained.length() + 240));
                    assertThat(block).as("%s names the default of %s", name, option.group()).contains("default");
                }
                options++;
            }
        }
        assertThat(options).isGreaterThanOrEqualTo(30);
    }

    @Test
    void usageMistakesExitWithTwoAndNameTheMistake()
    {
        Path store = temp.resolve("store");
        record Mistake(List<String> args, String message) {}
        List<Mistake> mistakes = new ArrayList<>(List.of(
                new Mistake(List.of("nosuch"), "unknown command 'nosuch'"),
                new Mistake(List.of("help", "nosuch"), "help takes one command name"),
                new Mistake(List.of("dump", "--table", "ducklake_snapshot", "--store"), "--store needs a value"),
                new Mistake(List.of("dump", "--store", "--table", "ducklake_snapshot"), "--store needs a value"),
                new Mistake(List.of("dump", "--table", "ducklake_snapshot"), "missing required option --store"),
                new Mistake(List.of("cat", "--store", store.toString()), "name one table as <schema>.<table>"),
                new Mistake(List.of("flush", "--store", store.toString(), "--store-timeout", "soon"), "--store-timeout takes a duration"),
                new Mistake(List.of("import", "--source", "ducklake:x.ducklake", "--store", store.toString(), "--store-timeout", "-1s"), "--store-timeout"),
                new Mistake(List.of("duckdb", "--store", store.toString(), "--store-timeout", "soon", "SELECT 1"), "--store-timeout takes a duration"),
                new Mistake(List.of("duckdb", "--store", store.toString(), "--mode", "sometimes", "SELECT 1"), "--mode is read-write or read-only")));
        // The hosted commands' own mistakes are checked on their modules' class paths (HostedCommandMistakesTest there).
        for (String name : List.of("import", "dump", "cat", "verify", "flush", "duckdb")) {
            mistakes.add(new Mistake(List.of(name, "--colour", "red"), "unknown option --colour"));
        }
        int refused = 0;
        for (Mistake mistake : mistakes) {
            Outcome outcome = runInProcess(mistake.args());
            assertThat(outcome.status()).as("%s: %s", mistake.args(), outcome.err()).isEqualTo(2);
            assertThat(outcome.err()).as("%s", mistake.args()).contains(mistake.message());
            assertThat(outcome.out()).as("%s", mistake.args()).isEmpty();
            refused++;
        }
        assertThat(refused).isEqualTo(mistakes.size()).isEqualTo(16);
        assertThat(Files.exists(store)).isFalse();
    }

    @Test
    void aHostedCommandOutsideItsModulesClassPathFailsNamingTheModule()
    {
        // This module's class path holds no engine and no benchmark: bin/moraine runs these with their module's.
        record Hosted(String command, String module) {}
        List<Hosted> hosted = List.of(new Hosted("trial", "moraine-bench"), new Hosted("bench", "moraine-bench"), new Hosted("demo", "engine-launchers"),
                new Hosted("trino", "engine-launchers"), new Hosted("trino-query", "engine-launchers"), new Hosted("spark-sql", "engine-launchers"));
        for (Hosted command : hosted) {
            Outcome outcome = runInProcess(List.of(command.command(), "--store", temp.resolve("store").toString()));
            assertThat(outcome.status()).as(command.command()).isEqualTo(1);
            assertThat(outcome.err()).as(command.command())
                    .contains("moraine " + command.command() + ": this command's code is in module " + command.module())
                    .contains("run it as bin/moraine " + command.command());
            assertThat(outcome.out()).as(command.command()).isEmpty();
        }
        assertThat(temp.resolve("store")).doesNotExist();
    }

    @Test
    void importAndFlushDrawAProgressLineOnlyOnATerminal()
            throws Exception
    {
        Path source = temp.resolve("source.ducklake");
        Outcome written = runInProcess(List.of("duckdb", "--store", temp.resolve("lake").toString(), "--data-path", temp.resolve("lake-data").toString(),
                "ATTACH " + MoraineDuckDb.quote("ducklake:" + source) + " AS source (DATA_PATH " + MoraineDuckDb.quote(temp.resolve("data") + "/") + "); "
                        + "CREATE TABLE source.main.t (a INTEGER); INSERT INTO source.main.t VALUES (1), (2), (3)"));
        assertThat(written.status()).as(written.err()).isZero();
        int checked = 0;
        for (boolean terminal : List.of(false, true)) {
            String store = temp.resolve("store-" + terminal).toString();
            System.setProperty(TerminalProgress.ENABLED_PROPERTY, Boolean.toString(terminal));
            try {
                Outcome imported = runInProcess(List.of("import", "--source", "ducklake:" + source, "--store", store));
                Outcome flushed = runInProcess(List.of("flush", "--store", store));
                for (Outcome outcome : List.of(imported, flushed)) {
                    assertThat(outcome.status()).as(outcome.err()).isZero();
                    if (terminal) {
                        // Drawn in place, then erased before the summary line.
                        assertThat(outcome.err()).containsPattern("\r(import|flush) \\[[#-]{30}\\] \\d+/\\d+ ").contains("\r\u001b[K");
                    }
                    else {
                        assertThat(outcome.err()).doesNotContain("\r").doesNotContain("\u001b");
                    }
                    checked++;
                }
                assertThat(imported.err()).contains("catalog rows of").doesNotContain("\n  read ");
                assertThat(flushed.err()).contains("3 rows (0 ended)").contains("flushed at snapshot");
            }
            finally {
                System.clearProperty(TerminalProgress.ENABLED_PROPERTY);
            }
        }
        assertThat(checked).isEqualTo(4);
    }
}
