package io.cctflow.graph.read;

/**
 * A range read met a roll-up of a whole deployment rewritten since its plan listed it (a pass
 * rolled its hour up again, perhaps with another member): the plan's choice of windows no longer
 * fits together, so {@link RangePlanner.Plan} plans the read again.
 */
public final class StaleReadPlanException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StaleReadPlanException(String windowKey, long plannedWritten, long readWritten) {
        super("deployment roll-up " + windowKey + " was rewritten after the read was planned (written "
                + plannedWritten + " when planned, " + readWritten + " when read)");
    }
}
