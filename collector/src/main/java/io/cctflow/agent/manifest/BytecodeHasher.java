package io.cctflow.agent.manifest;

import java.util.function.LongConsumer;

import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import io.cctflow.core.Hashing;

/**
 * Hashes one method's code as ASM reports it: access flags, every instruction with its operands,
 * and the exception handlers. Constant-pool references arrive already resolved to their symbolic
 * values (class, member and descriptor names, constants), so the hash does not depend on where
 * the compiler put them in the pool. Labels (jump targets, handler ranges) are numbered in order of first appearance, so
 * they do not depend on bytecode offsets either. Debug attributes and stack map frames are not
 * seen (the reader skips them), so moving a method to another line leaves its hash unchanged.
 *
 * <p>Every token starts with a tag and strings carry their length, so two different instruction
 * streams never feed the same sequence of values. Not thread-safe; one instance per method.
 */
final class BytecodeHasher extends MethodVisitor {
    // tags of tokens that are not opcodes (opcodes are 0..201)
    private static final int ACCESS = 0x1000;
    private static final int LABEL = 0x1001;
    private static final int TRY_CATCH = 0x1002;
    private static final int STRING = 0x1003;
    private static final int NULL = 0x1004;
    private static final int INT = 0x1005;
    private static final int FLOAT = 0x1006;
    private static final int LONG = 0x1007;
    private static final int DOUBLE = 0x1008;
    private static final int TYPE = 0x1009;
    private static final int HANDLE = 0x100a;
    private static final int CONDY = 0x100b;

    private int labelCount;
    private final LongConsumer onEnd;
    private long h = Hashing.fnv1aStart();

    /** @param onEnd receives the fingerprint when the method has been visited */
    BytecodeHasher(int access, LongConsumer onEnd) {
        super(Opcodes.ASM9);
        this.onEnd = onEnd;
        token(ACCESS);
        token(access);
    }

    @Override
    public void visitEnd() {
        onEnd.accept(Hashing.fmix64(h));
    }

    private void token(int v) {
        h = Hashing.fnv1a(h, v);
    }

    private void string(String s) {
        if (s == null) {
            token(NULL);
            return;
        }
        token(STRING);
        token(s.length());
        h = Hashing.fnv1a(h, s);
    }

    private void label(Label label) {
        token(LABEL);
        // Label.info is ASM's slot for visitor state; a label belongs to one method's reading
        if (!(label.info instanceof Integer)) {
            label.info = labelCount++;
        }
        token((Integer) label.info);
    }

    private void constant(Object value) {
        if (value instanceof Integer i) {
            token(INT);
            token(i);
        } else if (value instanceof Float f) {
            token(FLOAT);
            token(Float.floatToRawIntBits(f));
        } else if (value instanceof Long l) {
            token(LONG);
            token((int) (l >>> 32));
            token((int) (long) l);
        } else if (value instanceof Double d) {
            long bits = Double.doubleToRawLongBits(d);
            token(DOUBLE);
            token((int) (bits >>> 32));
            token((int) bits);
        } else if (value instanceof String s) {
            string(s);
        } else if (value instanceof Type t) {
            token(TYPE);
            string(t.getDescriptor());
        } else if (value instanceof Handle handle) {
            handle(handle);
        } else if (value instanceof ConstantDynamic condy) {
            token(CONDY);
            string(condy.getName());
            string(condy.getDescriptor());
            handle(condy.getBootstrapMethod());
            token(condy.getBootstrapMethodArgumentCount());
            for (int i = 0; i < condy.getBootstrapMethodArgumentCount(); i++) {
                constant(condy.getBootstrapMethodArgument(i));
            }
        } else {
            // ASM reports no other constant kinds; hash the class so an unexpected one still counts
            string(value == null ? null : value.getClass().getName());
        }
    }

    private void handle(Handle handle) {
        token(HANDLE);
        token(handle.getTag());
        string(handle.getOwner());
        string(handle.getName());
        string(handle.getDesc());
        token(handle.isInterface() ? 1 : 0);
    }

    @Override
    public void visitInsn(int opcode) {
        token(opcode);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
        token(opcode);
        token(operand);
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
        token(opcode);
        token(varIndex);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        token(opcode);
        string(type);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        token(opcode);
        string(owner);
        string(name);
        string(descriptor);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        token(opcode);
        string(owner);
        string(name);
        string(descriptor);
        token(isInterface ? 1 : 0);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
        token(Opcodes.INVOKEDYNAMIC);
        string(name);
        string(descriptor);
        handle(bootstrap);
        token(arguments.length);
        for (Object a : arguments) {
            constant(a);
        }
    }

    @Override
    public void visitJumpInsn(int opcode, Label target) {
        token(opcode);
        label(target);
    }

    @Override
    public void visitLabel(Label label) {
        label(label);
    }

    @Override
    public void visitLdcInsn(Object value) {
        token(Opcodes.LDC);
        constant(value);
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
        token(Opcodes.IINC);
        token(varIndex);
        token(increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... targets) {
        token(Opcodes.TABLESWITCH);
        token(min);
        token(max);
        label(dflt);
        for (Label l : targets) {
            label(l);
        }
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] targets) {
        token(Opcodes.LOOKUPSWITCH);
        label(dflt);
        token(keys.length);
        for (int i = 0; i < keys.length; i++) {
            token(keys[i]);
            label(targets[i]);
        }
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
        token(Opcodes.MULTIANEWARRAY);
        string(descriptor);
        token(dimensions);
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
        token(TRY_CATCH);
        label(start);
        label(end);
        label(handler);
        string(type);
    }
}
