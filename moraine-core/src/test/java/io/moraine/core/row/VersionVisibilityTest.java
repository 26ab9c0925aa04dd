package io.moraine.core.row;

import io.moraine.core.inline.read.InlineSelection;
import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class VersionVisibilityTest
{
    @Test
    void visibleFromBeginUntilBeforeEnd()
    {
        assertThat(VersionVisibility.visibleAt(5, OptionalLong.of(8), 4)).isFalse();
        assertThat(VersionVisibility.visibleAt(5, OptionalLong.of(8), 5)).isTrue();
        assertThat(VersionVisibility.visibleAt(5, OptionalLong.of(8), 7)).isTrue();
        assertThat(VersionVisibility.visibleAt(5, OptionalLong.of(8), 8)).isFalse();
        assertThat(VersionVisibility.visibleAt(5, OptionalLong.empty(), 1_000)).isTrue();
        assertThat(VersionVisibility.visibleAt(5, (Long) null, 4)).isFalse();
        assertThat(VersionVisibility.visibleAt(5, 8L, 8)).isFalse();
    }

    @Test
    void inlineSelectionAtSnapshotIsTheRule()
    {
        for (long snapshot = 0; snapshot <= 10; snapshot++) {
            for (OptionalLong end : new OptionalLong[] {OptionalLong.empty(), OptionalLong.of(3), OptionalLong.of(7)}) {
                assertThat(new InlineSelection.AtSnapshot(snapshot).selects(3, end))
                        .as("begin 3, end %s, at %s", end, snapshot)
                        .isEqualTo(VersionVisibility.visibleAt(3, end, snapshot));
            }
        }
    }
}
