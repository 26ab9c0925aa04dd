package io.moraine.core.changes;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChangePairingTest
{
    private static final ChangeKey UPDATED = new ChangeKey(5, 42);
    private static final ChangeKey INSERTED = new ChangeKey(5, 43);

    @Test
    void aRowIdDeletedAndInsertedInOneSnapshotIsAnUpdate()
    {
        Map<ChangeKey, Long> deletions = Map.of(UPDATED, 1L);
        Map<ChangeKey, Long> insertions = Map.of(UPDATED, 1L, INSERTED, 1L);
        assertThat(ChangePairing.changeTypes(ChangeKind.INSERTION, UPDATED, deletions)).containsExactly(ChangeType.UPDATE_POSTIMAGE);
        assertThat(ChangePairing.changeTypes(ChangeKind.DELETION, UPDATED, insertions)).containsExactly(ChangeType.UPDATE_PREIMAGE);
        assertThat(ChangePairing.changeTypes(ChangeKind.INSERTION, INSERTED, deletions)).containsExactly(ChangeType.INSERT);
    }

    @Test
    void theSameRowIdInAnotherSnapshotDoesNotPair()
    {
        assertThat(ChangePairing.changeTypes(ChangeKind.DELETION, new ChangeKey(6, 42), Map.of(UPDATED, 1L))).containsExactly(ChangeType.DELETE);
    }

    @Test
    void aRowMatchedTwiceComesOutTwiceAsDuckLakesJoinDoes()
    {
        assertThat(ChangePairing.changeTypes(ChangeKind.INSERTION, 2)).isEqualTo(List.of(ChangeType.UPDATE_POSTIMAGE, ChangeType.UPDATE_POSTIMAGE));
        assertThatThrownBy(() -> ChangePairing.changeTypes(ChangeKind.INSERTION, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void changeTypesAreSpelledAsDuckLakeSpellsThem()
    {
        assertThat(List.of(ChangeType.values()).stream().map(ChangeType::sqlName)).containsExactly("insert", "delete", "update_preimage", "update_postimage");
    }
}
