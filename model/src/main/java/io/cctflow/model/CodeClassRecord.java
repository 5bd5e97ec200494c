package io.cctflow.model;

import io.cctflow.core.MethodId;
import java.util.Arrays;
import java.util.Objects;

/**
 * The bytecode fingerprints of one class's methods in one deployment (service, version), as a
 * code manifest carries them: parallel arrays, one entry per method.
 *
 * <p>Arrays, not lists, so Flink serialises the record without a generic fallback; treat them
 * as immutable.
 *
 * @param className binary name with dots, e.g. {@code com.acme.Cart$Line}
 */
public record CodeClassRecord(String service, String version, String className, String[] methodNames,
        String[] descriptors, long[] fingerprints) {

    public CodeClassRecord {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(className, "className");
        if (methodNames.length != descriptors.length || methodNames.length != fingerprints.length) {
            throw new IllegalArgumentException("class " + className + ": " + methodNames.length + " method names, "
                    + descriptors.length + " descriptors and " + fingerprints.length + " fingerprints");
        }
    }

    /** The signature of method {@code i}, as {@link MethodRecord#signature()} spells it. */
    public String signature(int i) {
        return MethodId.signature(className, methodNames[i], descriptors[i]);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CodeClassRecord r && service.equals(r.service) && version.equals(r.version)
                && className.equals(r.className) && Arrays.equals(methodNames, r.methodNames)
                && Arrays.equals(descriptors, r.descriptors) && Arrays.equals(fingerprints, r.fingerprints);
    }

    @Override
    public int hashCode() {
        return Objects.hash(service, version, className, Arrays.hashCode(methodNames), Arrays.hashCode(descriptors),
                Arrays.hashCode(fingerprints));
    }

    @Override
    public String toString() {
        return "CodeClassRecord[" + service + "@" + version + " " + className + ", " + methodNames.length + " methods]";
    }
}
