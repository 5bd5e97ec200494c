package io.cctflow.core.encoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The bytes of each value are part of stored formats (windows in Neo4j, trees in Flink state):
 * pinned here byte for byte, and every sequence of values read back as written, damage refused.
 */
class ByteWriterReaderTest {
    private static final ByteReader.Damage DAMAGE = (at, length, what) ->
            new IllegalStateException("test format damaged at " + at + " of " + length + ": " + what);

    private static String hex(ByteWriter w) {
        return HexFormat.of().formatHex(w.toByteArray());
    }

    @Test
    void valuesHaveTheirFixedBytes() {
        ByteWriter w = new ByteWriter(0);
        w.varint(0);
        w.varint(127);
        w.varint(128);
        w.varint(300);
        assertThat(hex(w)).isEqualTo("007f8001ac02");

        w = new ByteWriter(0);
        w.varint(-1L);
        assertThat(hex(w)).isEqualTo("ffffffffffffffffff01");

        w = new ByteWriter(0);
        w.varint32(-1); // the int's 32 bits unsigned, not the long's 64
        w.varint32(Integer.MIN_VALUE);
        assertThat(hex(w)).isEqualTo("ffffffff0f" + "8080808008");

        w = new ByteWriter(0);
        w.longBigEndian(0x0102_0304_0506_0708L);
        w.write(0x1ff);
        w.write(new byte[] {9, 10});
        assertThat(hex(w)).isEqualTo("0102030405060708" + "ff" + "090a");
    }

    /** A random mix of every kind of value, written into one array that grows from 16 bytes, reads back in order. */
    @Property(tries = 300)
    void whatIsWrittenIsReadBack(@ForAll long seed) {
        Random random = new Random(seed);
        ByteWriter w = new ByteWriter(random.nextInt(4));
        List<long[]> written = new ArrayList<>(); // {kind, value}
        for (int i = random.nextInt(200); i > 0; i--) {
            int kind = random.nextInt(4);
            long value = switch (random.nextInt(3)) {
                case 0 -> random.nextInt(300) - 10;
                case 1 -> random.nextInt();
                default -> random.nextLong();
            };
            switch (kind) {
                case 0 -> w.varint(value);
                case 1 -> w.varint32((int) value);
                case 2 -> w.longBigEndian(value);
                default -> {
                    ByteWriter other = new ByteWriter(0);
                    other.varint(value);
                    w.write(other);
                }
            }
            written.add(new long[] {kind, value});
        }
        ByteReader r = new ByteReader(w.toByteArray(), DAMAGE);
        for (long[] kv : written) {
            long read = switch ((int) kv[0]) {
                case 1 -> r.varint32();
                case 2 -> r.longBigEndian();
                default -> r.varint();
            };
            assertThat(read).isEqualTo(kv[0] == 1 ? (int) kv[1] : kv[1]);
        }
        assertThat(r.remaining()).isZero();
        assertThat(w.length()).isEqualTo(r.position());
    }

    @Test
    void cutOffOrOverlongValuesAreRefusedWithTheOwnersException() {
        byte[] cut = HexFormat.of().parseHex("ff");
        assertThatThrownBy(() -> new ByteReader(cut, DAMAGE).varint())
                .isInstanceOf(IllegalStateException.class).hasMessage("test format damaged at 1 of 1: cut off");
        assertThatThrownBy(() -> new ByteReader(cut, DAMAGE).varint32()).hasMessageContaining("cut off");
        assertThatThrownBy(() -> new ByteReader(new byte[7], DAMAGE).longBigEndian()).hasMessageContaining("cut off");
        assertThatThrownBy(() -> new ByteReader(HexFormat.of().parseHex("ffffffffff01"), DAMAGE).varint32())
                .hasMessageContaining("longer than 5 bytes");
        assertThatThrownBy(() -> new ByteReader(HexFormat.of().parseHex("ffffffffffffffffffff01"), DAMAGE).varint())
                .hasMessageContaining("longer than 10 bytes");
        ByteReader r = new ByteReader(new byte[3], DAMAGE);
        assertThat(r.skip(2)).isZero();
        assertThatThrownBy(() -> r.skip(2)).hasMessage("test format damaged at 2 of 3: cut off");
        assertThatThrownBy(() -> r.skip(-1)).hasMessageContaining("cut off");
    }
}
