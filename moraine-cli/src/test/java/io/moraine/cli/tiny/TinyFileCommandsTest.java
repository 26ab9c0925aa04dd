package io.moraine.cli.tiny;

import io.moraine.cli.ImportedWorkload;
import io.moraine.cli.Main;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.keyspace.TinyFileKeys;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/moraine tiny-files publish|status|sweep|configure} on a store imported from the oracle workload: publish
 * copies the small files once (a second run copies nothing), status counts them and their share of the catalog,
 * configure turns copying off, sweep deletes an orphan and nothing else, and usage mistakes exit 2 without touching
 * the store; a missing store is refused and not created.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TinyFileCommandsTest
{
    private static final Pattern PUBLISHED = Pattern.compile("([\\d,]+) files: ([\\d,]+) copied \\(([\\d,]+) bytes, ([\\d,]+) batch(?:es)?\\), ([\\d,]+) already copied, ([\\d,]+) above");

    @TempDir
    static Path directory;

    private ImportedWorkload workload;
    private String store;
    private long copied;

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
    void publishCopiesOnceAndStatusCountsTheCopies()
    {
        assertThat(run(0, "tiny-files", "status", "--store", store)).contains("threshold 4,096 bytes; 0 copies");
        Matcher first = PUBLISHED.matcher(run(0, "tiny-files", "publish", "--store", store));
        assertThat(first.find()).isTrue();
        copied = number(first.group(2));
        long files = number(first.group(1));
        assertThat(copied).isPositive().isLessThanOrEqualTo(files);
        assertThat(number(first.group(6))).as("files above 4 KB in the workload").isPositive();
        Matcher second = PUBLISHED.matcher(run(0, "tiny-files", "publish", "--store", store));
        assertThat(second.find()).isTrue();
        assertThat(number(second.group(2))).isZero();
        assertThat(number(second.group(5))).isEqualTo(copied);
        String status = run(0, "tiny-files", "status", "--store", store);
        assertThat(status).contains(String.format("; %,d copies holding %,d bytes", copied, number(first.group(3))));
        assertThat(status).contains("share of the catalog: ").contains("the store's objects on disk");
    }

    @Test
    @Order(2)
    void theSweepDeletesOnlyAnOrphan()
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store), OpenMode.READ_WRITE)) {
            byte[] orphan = TinyFileKeys.key(1, TableKind.DATA_FILE, 9_999_999);
            catalog.writeBesideCommits(reader -> Map.of(ByteBuffer.wrap(orphan), TinyFileKeys.encodeValue(TableKind.DATA_FILE, 8, "PAR1PAR1".getBytes(StandardCharsets.UTF_8))));
        }
        assertThat(run(0, "tiny-files", "sweep", "--store", store)).contains(String.format("%,d copies: 1 deleted", copied + 1));
        assertThat(run(0, "tiny-files", "sweep", "--store", store)).contains(String.format("%,d copies: 0 deleted", copied));
    }

    @Test
    @Order(3)
    void configureTurnsCopyingOffAndOn()
    {
        run(0, "tiny-files", "configure", "--store", store, "--threshold-bytes", "0");
        assertThat(run(0, "tiny-files", "status", "--store", store)).contains("threshold 0 bytes (off)");
        assertThat(run(0, "tiny-files", "publish", "--store", store)).contains("is 0 (off): nothing copied");
        Matcher on = PUBLISHED.matcher(run(0, "tiny-files", "publish", "--store", store, "--threshold-bytes", "100000", "--table", "sales.orders"));
        assertThat(on.find()).isTrue();
        assertThat(run(0, "tiny-files", "status", "--store", store)).contains("threshold 100,000 bytes");
    }

    @Test
    @Order(4)
    void mistakesExit2AndAMissingStoreIsNotCreated()
    {
        assertThat(Main.run(new String[] {"tiny-files", "frob", "--store", store})).isEqualTo(2);
        assertThat(Main.run(new String[] {"tiny-files", "publish", "--store", store, "--threshold-bytes", "-1"})).isEqualTo(2);
        assertThat(Main.run(new String[] {"tiny-files", "configure", "--store", store})).isEqualTo(2);
        assertThat(Main.run(new String[] {"tiny-files", "sweep", "--store", store, "--table", "sales.orders"})).isEqualTo(2);
        Path missing = directory.resolve("no-such-store");
        assertThat(Main.run(new String[] {"tiny-files", "publish", "--store", missing.toString()})).isEqualTo(1);
        assertThat(Main.run(new String[] {"tiny-files", "status", "--store", missing.toString()})).isEqualTo(1);
        assertThat(Files.exists(missing)).isFalse();
    }

    private static long number(String text)
    {
        return Long.parseLong(text.replace(",", ""));
    }

    private static String run(int expected, String... args)
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
        assertThat(status).as("moraine %s: %s", String.join(" ", args), output).isEqualTo(expected);
        return output;
    }
}
