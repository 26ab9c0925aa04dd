package io.moraine.core.write;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-statement choice between inlined rows and data files, as the engines' tasks and committers make it. */
class InsertInliningTest
{
    private MoraineCatalog catalog;

    @BeforeEach
    void createLake()
    {
        catalog = MoraineCatalog.create(StoreUri.parse("memory://inlining-" + UUID.randomUUID()), NewCatalog.bootstrapped("/lake/data"));
        WriteTransaction.begin(catalog)
                .createSchema("s")
                .createTable(NewTable.of("s", "t", List.of(ColumnDefinition.of("a", "int32"))))
                .createTable(NewTable.of("s", "u", List.of(ColumnDefinition.of("a", "int32"))))
                .commit();
    }

    @AfterEach
    void close()
    {
        catalog.close();
    }

    @Test
    void theTableOptionWinsOverTheLakeOption()
    {
        assertThat(limitOf("t")).isEqualTo(10); // DuckLake's default
        LakeOptions.set(catalog, "data_inlining_row_limit", "5");
        LakeOptions.setForTable(catalog, "s", "t", "data_inlining_row_limit", "2");
        assertThat(limitOf("t")).isEqualTo(2);
        assertThat(limitOf("u")).isEqualTo(5);
    }

    @Test
    void limitZeroSendsEveryRowToFiles()
    {
        LakeOptions.set(catalog, "data_inlining_row_limit", "0");
        InsertInlining inlining = new InsertInlining(limitOf("t"));
        assertThat(inlining).isEqualTo(InsertInlining.OFF);
        HeldRows<String> task = inlining.newTask();
        assertThat(task.holding()).isFalse();
        assertThat(task.hold("row 1", 1)).containsExactly("row 1");
        assertThat(task.rowCount()).isZero();
        assertThat(inlining.inlines(1, 0)).isFalse();
        assertThat(inlining.inlines(0, 0)).isFalse();
    }

    @Test
    void aStatementOfExactlyTheLimitIsInlined()
    {
        InsertInlining inlining = new InsertInlining(3);
        HeldRows<String> task = inlining.newTask();
        assertThat(task.hold("page of 2", 2)).isEmpty();
        assertThat(task.hold("page of 1", 1)).isEmpty();
        assertThat(task.holding()).isTrue();
        assertThat(task.batches()).containsExactly("page of 2", "page of 1");
        assertThat(task.rowCount()).isEqualTo(3);
        assertThat(inlining.inlines(task.rowCount(), 0)).isTrue();
        assertThat(inlining.inlines(0, 0)).as("nothing held, nothing to inline").isFalse();
    }

    @Test
    void aTaskPastTheLimitReleasesItsRowsToFilesInOrder()
    {
        HeldRows<String> task = new InsertInlining(3).newTask();
        assertThat(task.hold("row 1", 1)).isEmpty();
        assertThat(task.hold("rows 2-3", 2)).isEmpty();
        assertThat(task.hold("row 4", 1)).containsExactly("row 1", "rows 2-3", "row 4");
        assertThat(task.holding()).isFalse();
        assertThat(task.rowCount()).isZero();
        assertThat(task.batches()).isEmpty();
        assertThat(task.hold("row 5", 1)).containsExactly("row 5");
    }

    @Test
    void limitPlusOneOverSeveralTasksGoesToAFile()
    {
        InsertInlining inlining = new InsertInlining(4);
        List<HeldRows<String>> tasks = List.of(inlining.newTask(), inlining.newTask(), inlining.newTask());
        tasks.get(0).hold("2 rows", 2);
        tasks.get(1).hold("2 rows", 2);
        tasks.get(2).hold("1 row", 1);
        assertThat(tasks).allMatch(HeldRows::holding);
        long held = tasks.stream().mapToLong(HeldRows::rowCount).sum();
        assertThat(held).isEqualTo(5);
        assertThat(inlining.inlines(held, 0)).isFalse();
        assertThat(inlining.inlines(held - 1, 0)).isTrue();
        // Held rows weigh with the rows other tasks already wrote to files.
        assertThat(inlining.inlines(1, 4)).isFalse();
    }

    private long limitOf(String table)
    {
        WriteTransaction transaction = WriteTransaction.begin(catalog);
        try {
            return InsertInlining.of(transaction, "s", table).rowLimit();
        }
        finally {
            transaction.rollback();
        }
    }
}
