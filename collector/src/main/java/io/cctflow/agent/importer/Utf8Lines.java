package io.cctflow.agent.importer;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a UTF-8 stream, each with its number and byte offset, so that a line whose bytes
 * are not UTF-8 can be reported by position and skipped instead of failing the whole input. A
 * line ends at {@code \n}, {@code \r\n} or {@code \r}, as for {@link java.io.BufferedReader#readLine};
 * the end is not part of the line.
 *
 * <p>Not thread-safe. Owns the stream: {@link #close} closes it.
 */
final class Utf8Lines implements Closeable {
    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private int position;
    private int limit;
    /** Bytes consumed so far: the offset of the next byte. */
    private long offset;

    private byte[] line = new byte[256];
    private int length;
    private CharBuffer chars = CharBuffer.allocate(256);
    private long number;
    private long lineOffset;
    private String text;
    private long badOffset;
    private int badLength;

    Utf8Lines(InputStream in) {
        this.in = in;
    }

    /** Moves to the next line; false at the end of the stream. */
    boolean next() throws IOException {
        int b = read();
        if (b < 0) {
            return false;
        }
        number++;
        lineOffset = offset - 1;
        length = 0;
        while (b >= 0 && b != '\n' && b != '\r') {
            if (length == line.length) {
                line = Arrays.copyOf(line, line.length * 2);
            }
            line[length++] = (byte) b;
            b = read();
        }
        if (b == '\r' && peek() == '\n') {
            read();
        }
        decode();
        return true;
    }

    /** Number of the current line, from 1. */
    long number() {
        return number;
    }

    /** Byte offset of the current line's first byte in the stream. */
    long offset() {
        return lineOffset;
    }

    /** The current line, or null when its bytes are not UTF-8 (see {@link #badOffset}). */
    String text() {
        return text;
    }

    /** Byte offset in the stream of the current line's first byte that is not UTF-8; -1 if none. */
    long badOffset() {
        return badOffset;
    }

    /** The bytes at {@link #badOffset} that are not UTF-8, in hex, e.g. {@code 0xE9}. */
    String badBytes() {
        if (badOffset < 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        int from = (int) (badOffset - lineOffset);
        for (int i = from; i < from + badLength; i++) {
            sb.append(i == from ? "" : " ").append(String.format("0x%02X", line[i] & 0xFF));
        }
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private void decode() {
        ByteBuffer bytes = ByteBuffer.wrap(line, 0, length);
        if (chars.capacity() < length) {
            chars = CharBuffer.allocate(length); // UTF-8 never gives more chars than bytes
        }
        chars.clear();
        decoder.reset();
        CoderResult result = decoder.decode(bytes, chars, true);
        if (!result.isError()) {
            result = decoder.flush(chars);
        }
        if (result.isError()) {
            text = null;
            badOffset = lineOffset + bytes.position();
            badLength = result.length();
        } else {
            text = chars.flip().toString();
            badOffset = -1;
            badLength = 0;
        }
    }

    private int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        offset++;
        return buffer[position++] & 0xFF;
    }

    private int peek() throws IOException {
        return fill() ? buffer[position] & 0xFF : -1;
    }

    /** Whether a byte is buffered, reading more when none is. */
    private boolean fill() throws IOException {
        while (position == limit) {
            int n = in.read(buffer, 0, buffer.length);
            if (n < 0) {
                return false;
            }
            position = 0;
            limit = n;
        }
        return true;
    }
}
