package io.cctflow.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

/** {@link PackedLongs}: every long array comes back as it went in; damaged bytes are refused. */
class PackedLongsProperties {

    @Property(tries = 500)
    void unpackInvertsPack(@ForAll @Size(max = 300) long[] values) {
        assertThat(PackedLongs.unpack(PackedLongs.pack(values))).containsExactly(values);
    }

    @Property(tries = 200)
    void smallCountsTakeOneByteEach(@ForAll @Size(max = 300) byte[] small) {
        long[] values = new long[small.length];
        for (int i = 0; i < small.length; i++) {
            values[i] = small[i] / 2; // -64..63: one byte zigzag-encoded
        }
        assertThat(PackedLongs.pack(values)).hasSize(values.length);
    }

    @Example
    void extremesAndACutOffValue() {
        long[] extremes = {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0, 1, 0x9E3779B97F4A7C15L};
        byte[] packed = PackedLongs.pack(extremes);
        assertThat(PackedLongs.unpack(packed)).containsExactly(extremes);
        assertThatThrownBy(() -> PackedLongs.unpack(Arrays.copyOf(packed, packed.length - 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cut off");
        byte[] tooLong = new byte[11];
        Arrays.fill(tooLong, (byte) 0x80);
        assertThatThrownBy(() -> PackedLongs.unpack(tooLong)).isInstanceOf(IllegalArgumentException.class);
        byte[] elevenBytes = Arrays.copyOf(tooLong, 12); // ends with a terminator, but after 11 bytes
        assertThatThrownBy(() -> PackedLongs.unpack(elevenBytes)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("longer than 10 bytes");
    }
}
