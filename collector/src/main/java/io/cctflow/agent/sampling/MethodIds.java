package io.cctflow.agent.sampling;

import java.util.IdentityHashMap;
import java.util.Map;

import io.cctflow.agent.batch.MethodId;
import io.cctflow.core.ClassNames;
import io.cctflow.core.MethodNames;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedMethod;

/**
 * Maps JFR's method objects to {@link MethodId}s without allocating per frame. JFR resolves each
 * method once per chunk from its constant pool and hands out the same {@link RecordedMethod}
 * object for every frame of it, so an identity map hits for all but the first frame.
 *
 * <p>Class and method names are normalised ({@link ClassNames#normalise}, {@link MethodNames#normalise}):
 * hidden classes, lambdas, proxies and other classes named at run time, and JRuby's numbered
 * call-site methods, get the same name in every run, so their method ids are stable.
 *
 * <p>The cache is cleared when it grows past a bound, because the objects of old chunks are
 * never seen again and would otherwise be kept alive by it.
 *
 * <p>Not thread-safe: owned by the JFR stream's thread.
 */
final class MethodIds {
    private static final int MAX_ENTRIES = 1 << 16;
    private static final String UNKNOWN = "unknown";

    private final Map<RecordedMethod, MethodId> cache = new IdentityHashMap<>();

    MethodId of(RecordedMethod method) {
        MethodId id = cache.get(method);
        if (id == null) {
            if (cache.size() >= MAX_ENTRIES) {
                cache.clear();
            }
            id = create(method);
            cache.put(method, id);
        }
        return id;
    }

    private static MethodId create(RecordedMethod method) {
        if (method == null) {
            return new MethodId(UNKNOWN, UNKNOWN, "()V");
        }
        RecordedClass type = method.getType();
        return new MethodId(ClassNames.normalise(orUnknown(type == null ? null : type.getName())),
                MethodNames.normalise(orUnknown(method.getName())), orUnknown(method.getDescriptor()));
    }

    private static String orUnknown(String s) {
        return s == null ? UNKNOWN : s;
    }
}
