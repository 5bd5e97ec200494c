/**
 * Tasks (seed 002 Sect. 3.3.3): user-defined labels on CCT nodes. A {@link
 * io.cctflow.core.task.TaskDefinition} matches a method's {@code className.methodName}; a node
 * carries the tasks of every method on its path, so each label marks whole subtrees whose highest
 * nodes are the task roots (Eq. 3.24).
 */
package io.cctflow.core.task;
