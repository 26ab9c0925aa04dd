package io.moraine.cli.rowsum;

import io.moraine.cli.ImportedWorkload;
import io.moraine.cli.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/moraine rowsum publish|status|sweep} on a store imported from the oracle workload (flush, update
 * rewrites, merge and rewrite compactions): a backfill publishes a sidecar for every file the catalog cannot prove
 * dense, a second one only reads headers, status counts what lookups would find (a corrupted sidecar is refused and
 * counted), and a sweep deletes exactly the sidecars whose data file the listing does not hold. Status shows the last
 * publish pass's outcomes (recorded in {@code _moraine/rowsum-publish.json}), a failure by its reason. No sidecar is
 * named {@code *.parquet}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RowSummaryCommandsTest
{
    private static final Pattern PUBLISHED = Pattern.compile("([\\d,]+) files: ([\\d,]+) published \\(([\\d,]+) bytes\\), ([\\d,]+) already published, ([\\d,]+) dense");

    @TempDir
    static Path directory;

    private ImportedWorkload workload;
    private String store;
    private long published;

    @BeforeAll
    void setUp()
            throws Exception
    {
        workload = ImportedWorkload.create(directory);
        store = workload.store();
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        workload.close();
    }

    @Test
    @Order(1)
    void publishBackfillsOnceThenReadsOnlyHeaders()
            throws Exception
    {
        Matcher first = PUBLISHED.matcher(run("rowsum", "publish", "--store", store));
        assertThat(first.find()).isTrue();
        published = number(first.group(2));
        long dense = number(first.group(5));
        assertThat(published).isPositive();
        assertThat(sidecars()).hasSize((int) published).allMatch(path -> !path.toString().endsWith(".parquet"));
        Matcher second = PUBLISHED.matcher(run("rowsum", "publish", "--store", store));
        assertThat(second.find()).isTrue();
        assertThat(number(second.group(2))).isZero();
        assertThat(number(second.group(4))).isEqualTo(published);
        assertThat(number(second.group(5))).isEqualTo(dense);
    }

    @Test
    @Order(2)
    void statusCountsHitsAndARefusedSidecar()
            throws Exception
    {
        String healthy = run("rowsum", "status", "--store", store);
        assertThat(healthy).contains(String.format("%,d with a usable sidecar, 0 without", published));
        // the second publish pass was the last: it found every sidecar present
        assertThat(healthy).containsPattern("last publish: snapshot \\d+, backfill, finished \\S+: [\\d,]+ files: 0 published \\(0 bytes\\), "
                + String.format("%,d already published, [\\d,]+ dense \\(skipped\\), 0 failed, 0 retries", published));
        assertThat(lakeFiles()).anyMatch(path -> path.endsWith("_moraine/rowsum-publish.json")).noneMatch(path -> path.contains("_moraine") && path.endsWith(".parquet"));
        assertThat(healthy).contains(String.format("sidecar reads: %,d hit, 0 miss", published));
        Path victim = sidecars().getFirst();
        byte[] bytes = Files.readAllBytes(victim);
        Files.write(victim, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        String damaged = run("rowsum", "status", "--store", store);
        assertThat(damaged).contains(String.format("%,d with a usable sidecar, 1 without", published - 1));
        assertThat(damaged).containsPattern("0 rejected on identity, 0 unknown version, 1 corrupt or short");
        Files.write(victim, bytes);
    }

    @Test
    @Order(3)
    void sweepDeletesOnlySidecarsWhoseDataFileIsGone()
            throws Exception
    {
        Path live = sidecars().getFirst();
        Path stranded = live.resolveSibling("ducklake-gone.parquet.rowsum");
        Files.copy(live, stranded);
        assertThat(run("rowsum", "status", "--store", store)).contains(String.format("%,d .rowsum objects, 1 stranded", published + 1));
        assertThat(run("rowsum", "sweep", "--store", store)).contains(String.format("%,d sidecars, 1 deleted", published + 1));
        assertThat(stranded).doesNotExist();
        assertThat(sidecars()).hasSize((int) published);
        assertThat(run("rowsum", "sweep", "--store", store)).contains(String.format("%,d sidecars, 0 deleted", published));
    }

    @Test
    @Order(4)
    void publishSinceASnapshotTakesOnlyTheTablesFilesRegisteredAfterIt()
            throws Exception
    {
        for (Path sidecar : sidecars()) {
            Files.delete(sidecar);
        }
        // after the newest snapshot nothing was registered; from the start, every file of sales.orders is taken
        Matcher none = PUBLISHED.matcher(run("rowsum", "publish", "--store", store, "--since", "1000000", "--table", "sales.orders"));
        assertThat(none.find()).isTrue();
        assertThat(number(none.group(2))).isZero();
        Matcher orders = PUBLISHED.matcher(run("rowsum", "publish", "--store", store, "--since", "0", "--table", "sales.orders"));
        assertThat(orders.find()).isTrue();
        assertThat(number(orders.group(2))).isPositive().isLessThan(published);
        assertThat(sidecars()).hasSize((int) number(orders.group(2))).allMatch(path -> path.toString().contains("orders"));
    }

    @Test
    @Order(5)
    void aFailedPublishIsRecordedByReasonAndStatusShowsIt()
            throws Exception
    {
        List<Path> before = sidecars();
        assertThat(before).isNotEmpty();
        String sidecar = before.getFirst().toString();
        Path dataFile = Path.of(sidecar.substring(0, sidecar.length() - ".rowsum".length()));
        for (Path path : before) {
            Files.delete(path);
        }
        Path aside = directory.resolve("moved-aside.parquet");
        Files.move(dataFile, aside);
        try {
            String failing = run(1, "rowsum", "publish", "--store", store, "--attempts", "1");
            assertThat(failing).contains("failed: 1 data file missing");
            String status = run("rowsum", "status", "--store", store);
            assertThat(status).containsPattern("last publish: snapshot \\d+, backfill, finished \\S+: [\\d,]+ files: [\\d,]+ published \\([\\d,]+ bytes\\), "
                    + "0 already published, [\\d,]+ dense \\(skipped\\), 1 failed \\(1 data file missing\\), 0 retries");
            assertThat(sidecars()).hasSize((int) published - 1).doesNotContain(before.getFirst());
        }
        finally {
            Files.move(aside, dataFile);
        }
        assertThat(run("rowsum", "status", "--store", store)).contains("1 failed (1 data file missing)");
        assertThat(run("rowsum", "publish", "--store", store)).contains(" files: 1 published (");
        assertThat(run("rowsum", "status", "--store", store)).containsPattern(String.format("%,d already published, [\\d,]+ dense \\(skipped\\), 0 failed, 0 retries", published - 1));
    }

    private List<String> lakeFiles()
            throws Exception
    {
        try (Stream<Path> files = Files.walk(directory.resolve("lake"))) {
            return files.map(Path::toString).toList();
        }
    }

    private List<Path> sidecars()
            throws Exception
    {
        try (Stream<Path> files = Files.walk(directory.resolve("lake"))) {
            return files.filter(path -> path.toString().endsWith(".rowsum")).sorted().toList();
        }
    }

    private static long number(String text)
    {
        return Long.parseLong(text.replace(",", ""));
    }

    private static String run(String... args)
    {
        return run(0, args);
    }

    private static String run(int expectedStatus, String... args)
    {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int status;
        try {
            status = Main.run(args);
        }
        finally {
            System.setOut(original);
        }
        String output = captured.toString(StandardCharsets.UTF_8);
        original.print(output);
        assertThat(status).as("moraine %s: %s", String.join(" ", args), output).isEqualTo(expectedStatus);
        return output;
    }
}
