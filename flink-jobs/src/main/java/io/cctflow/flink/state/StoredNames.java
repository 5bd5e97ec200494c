package io.cctflow.flink.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The stored form of method names: the subtask's in operator state ({@link
 * io.cctflow.flink.Outputs#METHOD_NAME_CHUNKS}), and an execution's in keyed state of savepoints from
 * before 2026-11-30 ({@link io.cctflow.flink.Outputs#LEGACY_CCT_METHOD_NAME_CHUNKS}): chunks, a name
 * as its method id, its length and its UTF-8 bytes. As with {@link StoredNodes}, a chunk is one byte
 * array, so a snapshot writes a few arrays instead of a map entry, a boxed id and an array per
 * method. Stateless.
 */
public final class StoredNames {
    private StoredNames() {
    }

    /** One chunk: each (method id, name), names as given. */
    public static byte[] encode(List<Long> ids, List<String> names) {
        byte[][] utf8 = new byte[names.size()][];
        int length = 0;
        for (int i = 0; i < utf8.length; i++) {
            utf8[i] = names.get(i).getBytes(StandardCharsets.UTF_8);
            length += Long.BYTES + Integer.BYTES + utf8[i].length;
        }
        ByteBuffer b = ByteBuffer.allocate(length);
        for (int i = 0; i < utf8.length; i++) {
            b.putLong(ids.get(i)).putInt(utf8[i].length).put(utf8[i]);
        }
        return b.array();
    }

    /**
     * Hands each (method id, name) of a chunk to {@code into}, in the order stored.
     *
     * @throws IllegalStateException if {@code chunk} is not a chunk of stored names
     */
    public static void decode(byte[] chunk, BiConsumer<Long, String> into) {
        ByteBuffer b = ByteBuffer.wrap(chunk);
        while (b.hasRemaining()) {
            if (b.remaining() < Long.BYTES + Integer.BYTES) {
                throw damaged(chunk, b.position());
            }
            long id = b.getLong();
            int length = b.getInt();
            if (length < 0 || length > b.remaining()) {
                throw damaged(chunk, b.position());
            }
            into.accept(id, new String(chunk, b.position(), length, StandardCharsets.UTF_8));
            b.position(b.position() + length);
        }
    }

    private static IllegalStateException damaged(byte[] chunk, int at) {
        return new IllegalStateException("a chunk of method names in state (" + chunk.length
                + " bytes) ends inside an entry at byte " + at);
    }
}
