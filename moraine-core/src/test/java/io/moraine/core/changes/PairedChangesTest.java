package io.moraine.core.changes;

import io.moraine.core.error.ErrorCode;
import io.moraine.core.error.InternalException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.moraine.core.changes.ChangeKind.DELETION;
import static io.moraine.core.changes.ChangeKind.INSERTION;
import static io.moraine.core.changes.ChangeType.DELETE;
import static io.moraine.core.changes.ChangeType.INSERT;
import static io.moraine.core.changes.ChangeType.UPDATE_POSTIMAGE;
import static io.moraine.core.changes.ChangeType.UPDATE_PREIMAGE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PairedChangesTest
{
    /** A named row: its index in the batch and its change type. */
    private record Named(int row, ChangeType type) {}

    @Test
    void rowsOfOneSnapshotAndRowIdOnBothSidesAreAnUpdate()
    {
        PairedChanges changes = PairedChanges.of(3, 6, true, "table_changes of main.t");
        long[] insertedSnapshots = {5, 5, 6};
        long[] insertedRowIds = {42, 43, 42};
        long[] deletedSnapshots = {5, 4};
        long[] deletedRowIds = {42, 43};
        // The counting pass, in batches as an engine reads them.
        changes.count(INSERTION, 2, column(insertedSnapshots), column(insertedRowIds));
        changes.count(INSERTION, 1, column(insertedSnapshots, 2), column(insertedRowIds, 2));
        changes.count(DELETION, 2, column(deletedSnapshots), column(deletedRowIds));

        assertThat(name(changes, INSERTION, insertedSnapshots, insertedRowIds))
                .containsExactly(new Named(0, UPDATE_POSTIMAGE), new Named(1, INSERT), new Named(2, INSERT));
        assertThat(name(changes, DELETION, deletedSnapshots, deletedRowIds))
                .containsExactly(new Named(0, UPDATE_PREIMAGE), new Named(1, DELETE));
    }

    @Test
    void aRowMatchedTwiceComesOutTwiceInOrder()
    {
        PairedChanges changes = PairedChanges.of(1, 9, true, "t");
        changes.count(DELETION, 2, row -> 7, row -> 10);
        changes.count(INSERTION, 2, row -> 7, row -> 10 + row);
        assertThat(name(changes, INSERTION, new long[] {7, 7}, new long[] {10, 11}))
                .containsExactly(new Named(0, UPDATE_POSTIMAGE), new Named(0, UPDATE_POSTIMAGE), new Named(1, INSERT));
        assertThat(name(changes, DELETION, new long[] {7, 7}, new long[] {10, 10}))
                .containsExactly(new Named(0, UPDATE_PREIMAGE), new Named(1, UPDATE_PREIMAGE));
    }

    @Test
    void largeBatchesGrowTheOutput()
    {
        PairedChanges changes = PairedChanges.of(1, 1, true, "t");
        int rows = 1000;
        changes.count(DELETION, rows, row -> 1, row -> row);
        changes.count(DELETION, rows, row -> 1, row -> row);
        int count = changes.name(INSERTION, rows, row -> 1, row -> row);
        assertThat(count).isEqualTo(2 * rows);
        assertThat(changes.rows()[2 * rows - 1]).isEqualTo(rows - 1);
        assertThat(changes.types()[2 * rows - 1]).isEqualTo(UPDATE_POSTIMAGE);
    }

    @Test
    void aGroupThatDoesNotPairNamesEachRowOnceByItsKind()
    {
        PairedChanges changes = PairedChanges.of(new ChangeGroup(2, 4, List.of()), "t");
        assertThat(changes.pairs()).isFalse();
        assertThat(name(changes, INSERTION, new long[] {2, 4}, new long[] {1, 1})).containsExactly(new Named(0, INSERT), new Named(1, INSERT));
        assertThat(name(changes, DELETION, new long[] {3}, new long[] {1})).containsExactly(new Named(0, DELETE));
        assertThatThrownBy(() -> changes.count(INSERTION, 1, row -> 2, row -> 1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void rowsAreCountedBeforeAnyIsNamed()
    {
        PairedChanges changes = PairedChanges.of(1, 2, true, "t");
        changes.name(INSERTION, 1, row -> 1, row -> 1);
        assertThatThrownBy(() -> changes.count(DELETION, 1, row -> 1, row -> 1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRowOutsideTheGroupsSnapshotsIsRefusedInEitherPass()
    {
        String refusal = "table_changes of main.t: a change of snapshot 7 was read with the change group of snapshots 3 to 6, so its pairing into updates "
                + "could be wrong; this is a bug in moraine's change-feed grouping";
        PairedChanges pairing = PairedChanges.of(3, 6, true, "table_changes of main.t");
        assertThatThrownBy(() -> pairing.count(INSERTION, 2, row -> row == 0 ? 3 : 7, row -> 1))
                .isInstanceOf(InternalException.class)
                .hasMessage(refusal)
                .satisfies(e -> assertThat(((InternalException) e).code()).isEqualTo(ErrorCode.INTERNAL));
        assertThatThrownBy(() -> pairing.name(DELETION, 1, row -> 2, row -> 1)).isInstanceOf(InternalException.class).hasMessageContaining("snapshot 2 ");
        PairedChanges unpaired = PairedChanges.of(new ChangeGroup(3, 6, List.of()), "table_changes of main.t");
        assertThatThrownBy(() -> unpaired.name(INSERTION, 1, row -> 7, row -> 1)).isInstanceOf(InternalException.class).hasMessage(refusal);
        assertThatThrownBy(() -> unpaired.check(3, row -> 5 + row)).isInstanceOf(InternalException.class).hasMessage(refusal);
        unpaired.check(3, row -> 3 + row);
    }

    private static List<Named> name(PairedChanges changes, ChangeKind kind, long[] snapshots, long[] rowIds)
    {
        int count = changes.name(kind, snapshots.length, column(snapshots), column(rowIds));
        int[] rows = Arrays.copyOf(changes.rows(), count);
        List<Named> named = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            named.add(new Named(rows[i], changes.types()[i]));
        }
        return named;
    }

    private static PairedChanges.LongColumn column(long[] values)
    {
        return column(values, 0);
    }

    private static PairedChanges.LongColumn column(long[] values, int offset)
    {
        return row -> values[offset + row];
    }
}
