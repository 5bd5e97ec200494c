package io.cctflow.flink.state;

import io.cctflow.flink.cct.CountColumns;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink's serializer of {@link CountColumns} (window state, and batches on their way to the window
 * operator): each {@code long[]} as its length and then its values in bulk, a few kilobytes per
 * call, instead of one {@code writeLong} per value as Flink's {@code long[]} serializer does (into a
 * heap snapshot's file stream that was one 8-byte write per value: 77 % of the asynchronous
 * checkpoint's CPU). {@link #copy} returns its argument: the columns are never modified after they
 * are built ({@link CountColumns}), so the heap backend's copy-on-write during a snapshot need not
 * copy them. Stateless and thread-safe.
 */
public final class CountColumnsSerializer extends ImmutableTypeSerializer<CountColumns> {
    private static final long serialVersionUID = 1L;
    public static final CountColumnsSerializer INSTANCE = new CountColumnsSerializer();
    /** Values per bulk write or read. */
    private static final int CHUNK_VALUES = 1024;
    private static final int NULL = -1;

    @Override
    public CountColumns createInstance() {
        return new CountColumns();
    }

    @Override
    public void serialize(CountColumns c, DataOutputView out) throws IOException {
        byte[] chunk = new byte[8 * CHUNK_VALUES];
        writeLongs(c.nodeIds, out, chunk);
        writeLongs(c.self, out, chunk);
        writeLongs(c.total, out, chunk);
        writeLongs(c.threadNodeIds, out, chunk);
        writeLongs(c.threadIds, out, chunk);
        writeLongs(c.threadSelf, out, chunk);
        writeLongs(c.threadDictIds, out, chunk);
        writeStrings(c.threadDictNames, out);
        writeLongs(c.methodIds, out, chunk);
        writeLongs(c.methodSamples, out, chunk);
        writeLongs(c.methodSelf, out, chunk);
        writeStrings(c.rawThreadNames, out);
    }

    @Override
    public CountColumns deserialize(DataInputView in) throws IOException {
        byte[] chunk = new byte[8 * CHUNK_VALUES];
        CountColumns c = new CountColumns();
        c.nodeIds = readLongs(in, chunk);
        c.self = readLongs(in, chunk);
        c.total = readLongs(in, chunk);
        c.threadNodeIds = readLongs(in, chunk);
        c.threadIds = readLongs(in, chunk);
        c.threadSelf = readLongs(in, chunk);
        c.threadDictIds = readLongs(in, chunk);
        c.threadDictNames = readStrings(in);
        c.methodIds = readLongs(in, chunk);
        c.methodSamples = readLongs(in, chunk);
        c.methodSelf = readLongs(in, chunk);
        c.rawThreadNames = readStrings(in);
        return c;
    }

    @Override
    public TypeSerializerSnapshot<CountColumns> snapshotConfiguration() {
        return new Snapshot();
    }

    private static void writeLongs(long[] values, DataOutputView out, byte[] chunk) throws IOException {
        if (values == null) {
            out.writeInt(NULL);
            return;
        }
        out.writeInt(values.length);
        ByteBuffer view = ByteBuffer.wrap(chunk);
        for (int from = 0; from < values.length; from += CHUNK_VALUES) {
            int n = Math.min(CHUNK_VALUES, values.length - from);
            view.clear();
            view.asLongBuffer().put(values, from, n);
            out.write(chunk, 0, 8 * n);
        }
    }

    private static long[] readLongs(DataInputView in, byte[] chunk) throws IOException {
        int length = in.readInt();
        if (length == NULL) {
            return null;
        }
        if (length < 0) {
            throw new IOException("corrupt count columns: array length " + length);
        }
        long[] values = new long[length];
        ByteBuffer view = ByteBuffer.wrap(chunk);
        for (int from = 0; from < length; from += CHUNK_VALUES) {
            int n = Math.min(CHUNK_VALUES, length - from);
            in.readFully(chunk, 0, 8 * n);
            view.clear();
            view.asLongBuffer().get(values, from, n);
        }
        return values;
    }

    private static void writeStrings(String[] values, DataOutputView out) throws IOException {
        if (values == null) {
            out.writeInt(NULL);
            return;
        }
        out.writeInt(values.length);
        for (String s : values) {
            out.writeUTF(s);
        }
    }

    private static String[] readStrings(DataInputView in) throws IOException {
        int length = in.readInt();
        if (length == NULL) {
            return null;
        }
        if (length < 0) {
            throw new IOException("corrupt count columns: string array length " + length);
        }
        String[] values = new String[length];
        for (int i = 0; i < length; i++) {
            values[i] = in.readUTF();
        }
        return values;
    }

    /**
     * Restores this serializer; the format has one version so far. The raw thread names were added
     * at the end of it: count columns travel between operators and are kept in no state since
     * state version 8, so no savepoint holds the format without them.
     */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<CountColumns> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
