package io.cctflow.graph;

/**
 * Small dense numbers of calling-context node ids (the store's {@code CctNode.seq}), which packed
 * format {@value PackedWindow#NUMBERED} codes node ids by: about a byte a node where a random 64-bit
 * id takes seven. A number, once given to an id, is never given to another id in the same epoch; an
 * epoch is a random nonzero tag of one numbering (a new store, or one wiped, starts another), so a
 * window packed against one numbering is never read against another. Implementations are
 * thread-safe: windows are packed and read concurrently.
 */
public interface NodeNumbering {
    /** The epoch of the numbers {@link #numberOf} gives. */
    int epoch();

    /** The number of {@code id}, or -1 when it has none (yet). */
    int numberOf(long id);

    /**
     * The id of each of {@code numbers} (distinct, ascending), given in epoch {@code epoch}: the
     * {@code i}-th id is that of {@code numbers[i]}.
     *
     * @throws UnknownNodeNumbersException when some are not known (to this numbering's memory; the caller may
     *         learn them from the store and read again)
     */
    long[] idsOf(int epoch, int[] numbers);

    /**
     * Numbers no id: windows are packed in the format before numbering ({@value
     * PackedWindow#PROJECTED_BY_NODE}), and reading a numbered window throws {@link
     * UnknownNodeNumbersException} naming all its numbers. Epoch 0, which no numbering has.
     */
    NodeNumbering NONE = new NodeNumbering() {
        @Override
        public int epoch() {
            return 0;
        }

        @Override
        public int numberOf(long id) {
            return -1;
        }

        @Override
        public long[] idsOf(int epoch, int[] numbers) {
            if (numbers.length > 0) {
                throw new UnknownNodeNumbersException(epoch, numbers);
            }
            return new long[0];
        }

        @Override
        public String toString() {
            return "NodeNumbering.NONE";
        }
    };
}
