package io.cctflow.graph;

/**
 * Node numbers a {@link NodeNumbering} does not know, met reading a window of packed format
 * {@value PackedWindow#NUMBERED}: numbers given after the numbering last learned the store's, or of
 * another epoch (a window written before the store was wiped). Retriable once the numbering has
 * learned them from the store; a window of an epoch the store no longer has cannot be read.
 */
public final class UnknownNodeNumbersException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** How many of the numbers the message names. */
    private static final int NAMED = 5;

    private final int epoch;
    private final int[] numbers;

    /** The {@code numbers} (ascending, copied) of epoch {@code epoch} that are not known. */
    public UnknownNodeNumbersException(int epoch, int[] numbers) {
        super(message(epoch, numbers));
        this.epoch = epoch;
        this.numbers = numbers.clone();
    }

    private static String message(int epoch, int[] numbers) {
        StringBuilder s = new StringBuilder("node numbers of epoch ").append(Integer.toHexString(epoch))
                .append(" not known: ").append(numbers.length).append(" (");
        for (int i = 0; i < Math.min(NAMED, numbers.length); i++) {
            s.append(i > 0 ? ", " : "").append(numbers[i]);
        }
        return s.append(numbers.length > NAMED ? ", ...)" : ")").toString();
    }

    /** The epoch the numbers were read in. */
    public int epoch() {
        return epoch;
    }

    /** The numbers not known, ascending (a copy). */
    public int[] numbers() {
        return numbers.clone();
    }
}
