package io.cctflow.flink.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * {@link StoredNames} on random ids and names (any characters, empty ones, two chunks
 * concatenated: entries decode back to back): what is encoded decodes to the same pairs in the same order;
 * a chunk cut anywhere inside an entry is an error naming the chunk.
 */
class StoredNamesProperties {

    @Property(tries = 300)
    void decodesWhatWasEncodedAlsoAfterConcatenation(@ForAll @Size(max = 40) List<Long> ids,
            @ForAll @Size(max = 40) List<String> names, @ForAll @Size(max = 10) List<Long> moreIds) {
        int n = Math.min(ids.size(), names.size());
        List<Long> firstIds = ids.subList(0, n);
        List<String> firstNames = names.subList(0, n);
        List<String> moreNames = new ArrayList<>();
        for (long id : moreIds) {
            moreNames.add("p.C" + id + ".m\u00e9");
        }
        byte[] all = concat(List.of(StoredNames.encode(firstIds, firstNames),
                StoredNames.encode(moreIds, moreNames)));

        List<Long> gotIds = new ArrayList<>();
        List<String> gotNames = new ArrayList<>();
        StoredNames.decode(all, (id, name) -> {
            gotIds.add(id);
            gotNames.add(name);
        });
        List<Long> expectedIds = new ArrayList<>(firstIds);
        expectedIds.addAll(moreIds);
        List<String> expectedNames = new ArrayList<>(firstNames);
        expectedNames.addAll(moreNames);
        assertThat(gotIds).isEqualTo(expectedIds);
        assertThat(gotNames).isEqualTo(expectedNames);
    }

    @Test
    void aChunkCutInsideAnEntryIsAnError() {
        byte[] chunk = StoredNames.encode(List.of(7L, 8L), List.of("a.B.c", "d.E.f"));
        for (int cut = 1; cut < chunk.length; cut++) {
            if (cut == chunk.length / 2) {
                continue; // between the two (equal-length) entries: a valid chunk of one
            }
            byte[] cutOff = Arrays.copyOf(chunk, cut);
            assertThatThrownBy(() -> StoredNames.decode(cutOff, (id, name) -> { }))
                    .as("cut at %d", cut)
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("chunk of method names");
        }
    }

    private static byte[] concat(List<byte[]> chunks) {
        byte[] all = new byte[chunks.stream().mapToInt(c -> c.length).sum()];
        int at = 0;
        for (byte[] c : chunks) {
            System.arraycopy(c, 0, all, at, c.length);
            at += c.length;
        }
        return all;
    }
}
