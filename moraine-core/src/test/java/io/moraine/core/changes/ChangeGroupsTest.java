package io.moraine.core.changes;

import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.DeleteFileRef;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class ChangeGroupsTest
{
    private static final long FROM = 1;
    private static final long TO = 9;

    @Test
    void tasksThatMayPairShareAGroupAndTheRestAreGroupsOfTheirOwn()
    {
        InsertedRowsTask insertedAt3 = inserted(file(1, 3, OptionalLong.empty()));
        InsertedRowsTask partialFrom2To4 = inserted(file(2, 2, OptionalLong.of(4)));
        InsertedRowsTask updatedAt6 = inserted(file(3, 6, OptionalLong.empty()));
        DeletedRowsTask retiredAt6 = retired(file(4, 1, OptionalLong.empty()), 6);
        InsertedRowsTask insertedAt8 = inserted(file(5, 8, OptionalLong.empty()));

        List<ChangeGroup> groups = ChangeGroups.of(FROM, TO, List.of(insertedAt8, retiredAt6, insertedAt3, partialFrom2To4, updatedAt6),
                LocalFileSystem.INSTANCE, 16);

        // Snapshots 2 to 4 hold insertions only: each task alone. Snapshot 6 deletes and inserts: one group that pairs.
        assertThat(groups).extracting(ChangeGroup::firstSnapshot, ChangeGroup::lastSnapshot, group -> group.tasks().size(), ChangeGroup::pairs)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(2L, 4L, 1, false),
                        org.assertj.core.groups.Tuple.tuple(2L, 4L, 1, false),
                        org.assertj.core.groups.Tuple.tuple(6L, 6L, 2, true),
                        org.assertj.core.groups.Tuple.tuple(8L, 8L, 1, false));
        assertThat(groups.get(2).tasks()).containsExactlyInAnyOrder(retiredAt6, updatedAt6);
    }

    @Test
    void inlinedRowsAreCutIntoTheGroupsRangesThatTileTheFeed()
    {
        List<ChangeTask> tasks = List.of(inserted(file(1, 3, OptionalLong.empty())), retired(file(2, 1, OptionalLong.empty()), 6),
                inlined(ChangeKind.INSERTION), inlined(ChangeKind.DELETION));

        List<ChangeGroup> groups = ChangeGroups.of(FROM, TO, tasks, LocalFileSystem.INSTANCE, 16);

        assertThat(groups).extracting(ChangeGroup::firstSnapshot, ChangeGroup::lastSnapshot)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, 3L), org.assertj.core.groups.Tuple.tuple(4L, 6L),
                        org.assertj.core.groups.Tuple.tuple(7L, 9L));
        for (ChangeGroup group : groups) {
            assertThat(group.pairs()).isTrue();
            assertThat(group.tasks()).filteredOn(InlinedChangesTask.class::isInstance).extracting(task -> (InlinedChangesTask) task)
                    .allSatisfy(task -> assertThat(List.of(task.fromSnapshot(), task.toSnapshot())).containsExactly(group.firstSnapshot(), group.lastSnapshot()))
                    .hasSize(2);
        }

        List<ChangeGroup> merged = ChangeGroups.of(FROM, TO, tasks, LocalFileSystem.INSTANCE, 2);
        assertThat(merged).extracting(ChangeGroup::firstSnapshot, ChangeGroup::lastSnapshot)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, 6L), org.assertj.core.groups.Tuple.tuple(7L, 9L));
        assertThat(merged.getFirst().tasks()).hasSize(4);
    }

    @Test
    void aGroupRoundTripsThroughItsEncoding()
    {
        DataFileTask file = file(7, 2, OptionalLong.of(5));
        DeletedRowsTask deleted = new DeletedRowsTask(file, Optional.of(new DeleteFileRef("/lake/d.parquet", OptionalLong.of(99), 4, "parquet")),
                Optional.of(new DeleteFileRef("/lake/c.parquet", OptionalLong.empty(), 3, "parquet")), OptionalLong.of(6), new long[] {1, 5},
                new long[] {4, 5}, FROM, TO);
        ChangeGroup group = new ChangeGroup(2, 6, List.of(inserted(file), deleted, inlined(ChangeKind.DELETION)), List.of(retired(file(8, 1, OptionalLong.empty()), 6)));

        byte[] encoded = ChangeTaskCodec.encode(group);
        ChangeGroup decoded = ChangeTaskCodec.decode(encoded);

        assertThat(ChangeTaskCodec.encode(decoded)).isEqualTo(encoded);
        assertThat(decoded.tasks()).hasSize(3);
        assertThat(decoded.keyTasks()).hasSize(1);
        assertThat(decoded.pairingTasks()).hasSize(4);
        DeletedRowsTask decodedDeletion = (DeletedRowsTask) decoded.tasks().get(1);
        assertThat(decodedDeletion.deleteFile()).isEqualTo(deleted.deleteFile());
        assertThat(decodedDeletion.previousDeleteFile()).isEqualTo(deleted.previousDeleteFile());
        assertThat(decodedDeletion.retiredAt()).isEqualTo(OptionalLong.of(6));
        assertThat(decodedDeletion.inlinedPositions()).containsExactly(1, 5);
        assertThat(decodedDeletion.inlinedSnapshots()).containsExactly(4, 5);
        assertThat(decodedDeletion.file().path()).isEqualTo(file.path());
        assertThat(decoded.tasks().get(2)).isEqualTo(group.tasks().get(2));
        assertThat(List.of(decoded.firstSnapshot(), decoded.lastSnapshot())).containsExactly(2L, 6L);
    }

    private static DataFileTask file(long id, long beginSnapshot, OptionalLong partialMax)
    {
        return new DataFileTask(1, TO, id, "/lake/f" + id + ".parquet", 1000, 10, OptionalLong.empty(), OptionalLong.of(id * 100), beginSnapshot, partialMax,
                List.of(), new long[0], OptionalLong.empty(), List.of(), 0, 1000);
    }

    private static InsertedRowsTask inserted(DataFileTask file)
    {
        return new InsertedRowsTask(file, FROM, TO);
    }

    private static DeletedRowsTask retired(DataFileTask file, long at)
    {
        return new DeletedRowsTask(file, Optional.empty(), Optional.empty(), OptionalLong.of(at), new long[0], new long[0], FROM, TO);
    }

    private static InlinedChangesTask inlined(ChangeKind kind)
    {
        return new InlinedChangesTask(1, kind, TO, TO, FROM, TO, List.of(0L));
    }
}
