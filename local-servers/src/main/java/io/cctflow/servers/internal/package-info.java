/**
 * Implementation details of the local servers: port picking, the Kafka child process's entry
 * point, topic creation and the two {@code TestServers} back ends. Not an API: may change
 * without notice.
 */
package io.cctflow.servers.internal;
