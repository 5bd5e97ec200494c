package io.cctflow.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** {@link PackedLongs}: every long array comes back as it went in; damaged bytes are refused. */
class PackedLongsTest {

    @Property(tries = 500)
    void unpackInvertsPack(@ForAll @Size(max = 300) long[] values) {
        assertThat(PackedLongs.unpack(PackedLongs.pack(values))).containsExactly(values);
    }

    /**
     * Values of every encoded length (1 to 10 bytes) in any order and number, so words of eight
     * bytes hold several values, end inside a value, or lie in the last eight bytes: unpacked as the
     * plain byte-at-a-time decoder reads them.
     */
    @Property(tries = 1000)
    void unpackReadsWhatAByteAtATimeDecoderReads(@ForAll @Size(max = 40) List<@IntRange(min = 0, max = 64) Integer> bits,
            @ForAll long seed) {
        java.util.Random random = new java.util.Random(seed);
        long[] values = new long[bits.size()];
        for (int i = 0; i < values.length; i++) {
            int b = bits.get(i);
            values[i] = b == 0 ? 0 : b == 64 ? random.nextLong() : random.nextLong() >> (64 - b);
        }
        byte[] packed = PackedLongs.pack(values);
        assertThat(PackedLongs.unpack(packed)).containsExactly(byteAtATime(packed)).containsExactly(values);
    }

    /**
     * Any bytes at all, as a damaged or torn store could hold them: unpacked as the reference reads
     * them when every value ends within 10 bytes and the last byte ends one, else refused with
     * {@link IllegalArgumentException} (never an index out of bounds).
     */
    @Property(tries = 1000)
    void anyBytesUnpackAsTheReferenceReadsThemOrAreRefused(@ForAll @Size(max = 64) byte[] bytes) {
        int run = 0;
        boolean valid = true;
        for (byte b : bytes) {
            run = b < 0 ? run + 1 : 0;
            valid &= run <= 9;
        }
        valid &= run == 0;
        if (valid) {
            assertThat(PackedLongs.unpack(bytes)).containsExactly(byteAtATime(bytes));
        } else {
            assertThatThrownBy(() -> PackedLongs.unpack(bytes)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** The reference: LEB128 varints read one byte at a time, zigzag-decoded. */
    private static long[] byteAtATime(byte[] bytes) {
        List<Long> out = new ArrayList<>();
        long z = 0;
        int shift = 0;
        for (byte b : bytes) {
            z |= (long) (b & 0x7F) << shift;
            shift += 7;
            if (b >= 0) {
                out.add((z >>> 1) ^ -(z & 1));
                z = 0;
                shift = 0;
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
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
