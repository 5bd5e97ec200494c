package io.cctflow.agent.manifest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import io.cctflow.schema.MethodFingerprint;

/**
 * The fingerprints of every method of one class file ({@link BytecodeHasher}): 64-bit, the same in
 * every JVM and for every compilation that produces the same instructions, whatever the order of
 * the constant pool, the line numbers or the local variable names.
 *
 * @param className binary name with dots, as JFR and {@code MethodRef} spell it
 * @param methods one per method the class declares (abstract and native ones included), in
 *     class-file order
 */
public record ClassFingerprints(String className, List<MethodFingerprint> methods) {
    /**
     * Parses a class file and fingerprints its methods. Thread-safe (no shared state).
     *
     * @throws IllegalArgumentException if the bytes are not a class file ASM can read (damaged, or
     *     a class-file version newer than it knows)
     */
    public static ClassFingerprints of(byte[] classFile) {
        ClassReader reader;
        try {
            reader = new ClassReader(classFile);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a readable class file: " + e, e);
        }
        Collector collector = new Collector();
        try {
            reader.accept(collector, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        } catch (RuntimeException e) {
            // ASM reports damage as ArrayIndexOutOfBounds, IllegalArgument and the like
            throw new IllegalArgumentException("cannot parse class " + collector.className + ": " + e, e);
        }
        return new ClassFingerprints(collector.className, collector.methods);
    }

    /**
     * The fingerprints keyed by method signature ({@code className.methodName descriptor}, as
     * {@code io.cctflow.core.MethodId#signature} spells it), in plain Java types.
     */
    public Map<String, Long> bySignature() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (MethodFingerprint m : methods) {
            out.put(m.getClassName() + "." + m.getMethodName() + m.getDescriptor(), m.getFingerprint());
        }
        return out;
    }

    /** Collects the class name and one hasher per method. Not thread-safe. */
    private static final class Collector extends ClassVisitor {
        private final List<MethodFingerprint> methods = new ArrayList<>();
        private String className = "?";

        Collector() {
            super(Opcodes.ASM9);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                String[] interfaces) {
            className = name.replace('/', '.');
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            // the constructor, not the builder: Avro's builders validate and copy, and this runs per method
            return new BytecodeHasher(access, fingerprint -> methods.add(
                    new MethodFingerprint(className, name, descriptor, fingerprint)));
        }
    }
}
