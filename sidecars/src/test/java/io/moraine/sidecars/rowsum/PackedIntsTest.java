package io.moraine.sidecars.rowsum;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PackedIntsTest
{
    @Test
    void widthIsCeilLog2OfTheCount()
    {
        assertThat(PackedInts.widthFor(0)).isZero();
        assertThat(PackedInts.widthFor(1)).isZero();
        assertThat(PackedInts.widthFor(2)).isEqualTo(1);
        assertThat(PackedInts.widthFor(3)).isEqualTo(2);
        assertThat(PackedInts.widthFor(4)).isEqualTo(2);
        assertThat(PackedInts.widthFor(5)).isEqualTo(3);
        assertThat(PackedInts.widthFor(1_000_000)).isEqualTo(20);
        assertThat(PackedInts.widthFor(1 << 20)).isEqualTo(20);
        assertThat(PackedInts.widthFor((1 << 20) + 1)).isEqualTo(21);
    }

    @Test
    void layoutIsLsbFirst()
    {
        // the docs/rowsum.md example: 3-bit entries 5, 1, 6, 3 set stream bits 0,2 / 3 / 7,8 / 9,10 -> 0x8D 0x07
        byte[] bytes = new byte[2];
        long[] values = {5, 1, 6, 3};
        for (int i = 0; i < values.length; i++) {
            PackedInts.put(bytes, 0, i, 3, values[i]);
        }
        assertThat(bytes).containsExactly(0x8D, 0x07);
        for (int i = 0; i < values.length; i++) {
            assertThat(PackedInts.get(bytes, 0, i, 3)).isEqualTo(values[i]);
        }
    }

    @Test
    void everyWidthRoundTripsAtEveryAlignment()
    {
        Random random = new Random(7);
        int checked = 0;
        for (int width = 1; width <= 40; width++) {
            long[] values = new long[257];
            for (int i = 0; i < values.length; i++) {
                values[i] = random.nextLong() >>> (64 - width);
            }
            byte[] bytes = new byte[Math.toIntExact(3 + PackedInts.bytesFor(values.length, width))];
            for (int i = 0; i < values.length; i++) {
                PackedInts.put(bytes, 3, i, width, values[i]);
            }
            for (int i = 0; i < values.length; i++) {
                assertThat(PackedInts.get(bytes, 3, i, width)).isEqualTo(values[i]);
                // a one-entry ranged read fetches exactly the bytes the arithmetic names
                long first = 3 + PackedInts.firstByte(i, width);
                int span = PackedInts.bytesSpanned(i, width);
                byte[] window = java.util.Arrays.copyOfRange(bytes, (int) first, (int) first + span);
                assertThat(PackedInts.getAtBit(window, ((long) i * width) & 7, width)).isEqualTo(values[i]);
                checked++;
            }
        }
        assertThat(checked).isEqualTo(40 * 257);
    }

    @Test
    void bulkUnpackingAgreesWithSingleEntries()
    {
        Random random = new Random(8);
        int checked = 0;
        for (int width = 0; width <= 32; width++) {
            for (int base : new int[] {0, 5}) {
                int count = 1 + random.nextInt(300);
                byte[] bytes = new byte[Math.toIntExact(base + PackedInts.bytesFor(count, width))];
                for (int i = 0; i < count; i++) {
                    PackedInts.put(bytes, base, i, width, width == 0 ? 0 : random.nextLong() >>> (64 - width));
                }
                int[] values = new int[count];
                PackedInts.unpack(bytes, base, width, values);
                for (int i = 0; i < count; i++) {
                    assertThat(Integer.toUnsignedLong(values[i])).isEqualTo(PackedInts.get(bytes, base, i, width));
                    checked++;
                }
            }
        }
        assertThat(checked).isPositive();
    }

    @Test
    void refusesAValueItsWidthCannotHold()
    {
        byte[] bytes = new byte[8];
        assertThatThrownBy(() -> PackedInts.put(bytes, 0, 0, 20, 1 << 20))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not fit in 20 bits");
        assertThatThrownBy(() -> PackedInts.put(bytes, 0, 0, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PackedInts.put(bytes, 0, 0, 5, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(bytes).containsOnly(0);
    }
}
