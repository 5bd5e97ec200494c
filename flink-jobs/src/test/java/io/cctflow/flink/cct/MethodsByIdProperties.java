package io.cctflow.flink.cct;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.model.MethodRecord;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link MethodsById} against the map it replaced ({@code Map.putIfAbsent} of the batch's
 * dictionary, then of the merged stacks' methods): the same record for every id, over batches
 * reusing one instance, lookups interleaved with additions, and ids held twice with other names.
 */
class MethodsByIdProperties {
    @Property(tries = 300)
    void findsWhatPutIfAbsentKept(@ForAll long seed) {
        Random random = new Random(seed);
        MethodsById methods = new MethodsById();
        for (int batch = 0; batch < 5; batch++) {
            Map<Long, MethodRecord> model = new HashMap<>();
            MethodRecord[] dictionary = new MethodRecord[random.nextInt(600)];
            for (int i = 0; i < dictionary.length; i++) {
                dictionary[i] = record(random);
                model.putIfAbsent(dictionary[i].id(), dictionary[i]);
            }
            methods.reset(dictionary);
            for (int op = 0; op < 200; op++) {
                if (random.nextInt(4) == 0) {
                    MethodRecord m = record(random);
                    methods.add(m);
                    model.putIfAbsent(m.id(), m);
                } else {
                    long id = random.nextInt(1_200);
                    assertThat(methods.get(id)).as("batch %d, id %d", batch, id).isEqualTo(model.get(id));
                }
            }
        }
    }

    /** Ids from a small range, so ids repeat with other names. */
    private static MethodRecord record(Random random) {
        return new MethodRecord(random.nextInt(1_000), "C" + random.nextInt(5), "m" + random.nextInt(5), "()V");
    }
}
