package io.cctflow.agent.manifest;

/**
 * A class file as the JVM defined it, waiting to be fingerprinted.
 *
 * @param internalName e.g. {@code com/acme/Checkout}
 * @param bytes a private copy of the class file; not modified by anyone
 * @param loader the defining loader, held until the class is fingerprinted; null for the boot loader
 */
record ObservedClass(String internalName, byte[] bytes, ClassLoader loader) {
}
