package io.moraine.core.io;

import io.moraine.core.error.CorruptionException;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WireFormatTest
{
    private static final byte VERSION = 7;

    @Test
    void valuesRoundTrip()
    {
        String longText = "é".repeat(40_000);
        byte[] bytes = WireFormat.encode(VERSION, out -> {
            WireFormat.writeString(out, longText);
            WireFormat.writeOptional(out, OptionalLong.of(-3));
            WireFormat.writeOptional(out, OptionalLong.empty());
            WireFormat.writeLongs(out, new long[] {1, Long.MAX_VALUE});
        });
        Object[] read = WireFormat.decode(bytes, VERSION, "a test value", in -> new Object[] {
                WireFormat.readString(in), WireFormat.readOptional(in), WireFormat.readOptional(in), WireFormat.readLongs(in)});
        assertThat(read[0]).isEqualTo(longText);
        assertThat(read[1]).isEqualTo(OptionalLong.of(-3));
        assertThat(read[2]).isEqualTo(OptionalLong.empty());
        assertThat((long[]) read[3]).containsExactly(1, Long.MAX_VALUE);
    }

    @Test
    void anotherVersionIsRefusedNamingBothAndTheFix()
    {
        byte[] bytes = WireFormat.encode((byte) 6, out -> out.writeLong(1));
        assertThatThrownBy(() -> WireFormat.decode(bytes, VERSION, "a scan task", in -> in.readLong()))
                .isInstanceOf(CorruptionException.class)
                .hasMessageContaining("a scan task was encoded with version 6")
                .hasMessageContaining("this build reads 7")
                .hasMessageContaining("same moraine version");
    }

    @Test
    void bytesCutShortAreCorruption()
    {
        byte[] bytes = WireFormat.encode(VERSION, out -> WireFormat.writeString(out, "a path"));
        byte[] cut = Arrays.copyOf(bytes, bytes.length - 8);
        assertThatThrownBy(() -> WireFormat.decode(cut, VERSION, "a change task", in -> {
            String value = WireFormat.readString(in);
            in.readLong();
            return value;
        })).isInstanceOf(CorruptionException.class).hasMessageContaining("a change task's bytes are truncated or damaged");
    }
}
