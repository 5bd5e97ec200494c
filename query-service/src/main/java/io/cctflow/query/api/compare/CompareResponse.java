package io.cctflow.query.api.compare;

import java.util.List;

/**
 * The body of {@code GET /api/v1/compare}. Every share comes with the sample counts it is made of.
 *
 * <p>Methods first: {@code significant} and {@code message} say in a word whether anything changed
 * beyond noise ({@code "no significant change"} when nothing passed the false discovery rate;
 * {@code "too few replicates to estimate noise; labels withheld (...)"} when a side has fewer than
 * two instances or windows);
 * {@code significance} says how the noise was estimated; {@code methods} are the per-method rows,
 * most significant first. The PARCS fields (common tree, overlap, score, stages, weight
 * differences, attributions) follow.
 *
 * @param weight the node weight differences are ranked by: {@code self} or {@code total}
 * @param score seed 000 Sect. 5.2 matching score in percent (self and total overlap times coverage)
 * @param stages one entry per PARCS stage, in stage order
 * @param differences the significant weight differences, largest |delta| first, at most {@code top}
 * @param attributions the excised subtrees, stage order, most samples first, at most {@code top}
 *     per stage
 * @param context how to decode a node's calling context ({@code /api/v1/context?node={id}}, {@code
 *     {id}} a node id of a weight change or an attribution)
 */
public record CompareResponse(
        boolean significant,
        String message,
        Significance significance,
        List<MethodRow> methods,
        String service,
        Side a,
        Side b,
        String weight,
        CommonTreeSize commonTree,
        Overlaps overlap,
        double score,
        Noise noise,
        Changes changes,
        List<StageCounts> stages,
        List<WeightChange> differences,
        List<Attribution> attributions,
        String context) {

    /**
     * @param version null when the side spans several versions
     * @param samples every sample of the side (the root's total count)
     * @param nodes CCT nodes of the side, virtual root not counted
     */
    public record Side(String version, List<String> instances, String from, String to, long samples, int nodes) {
    }

    /**
     * @param size matched pairs left after every excised subtree (virtual root not counted), nodes
     *     identified by method and call-site line
     * @param shareOfA size / nodes of side a (1 for an empty side)
     * @param byMethodPath the common tree with contexts matched by method path, call-site lines
     *     breaking ties only by their order ({@code CommonTree.byMethodPath}): what lines that
     *     moved between releases no longer split
     */
    public record CommonTreeSize(int size, double shareOfA, double shareOfB, CommonTreeByMethod byMethodPath) {
    }

    /** The common tree by method path: matched pairs and their share of each side's nodes. */
    public record CommonTreeByMethod(int size, int nodesA, int nodesB, double shareOfA, double shareOfB) {
    }

    /**
     * How the per-method significance was computed.
     *
     * @param fdr false discovery rate controlled across every share tested (Benjamini-Hochberg)
     * @param model {@code replicates} (quasi-negative-binomial, the noise estimated from the
     *     replicates of both sides) or {@code withheld} (a side has one replicate: the numbers are
     *     the binomial model's, which understates the noise, and no change is labelled)
     * @param unitA what side a's replicates are: {@code instances}, {@code instance groups}, {@code windows} or {@code none}; one
     *     unit for both sides, so {@code unitB} is the same
     * @param dispersionTrend the noise trend: a share's variance relative to binomial sampling by its
     *     samples per replicate (1 throughout: none; the one point {1: 1} when withheld)
     * @param priorDegreesOfFreedom weight of the trend in each share's moderated dispersion (1e6:
     *     every share at the trend)
     * @param priorScale the shares' typical dispersion relative to the trend
     * @param normalisationA side a's TMM factor against the unchanged bulk of the methods (cct-core
     *     {@code Normalisation}): shares are {@code count / (samples * factor)}; 1 when withheld
     * @param normalisationB side b's
     * @param methods methods on either side
     * @param tested shares counted by the adjustment (two per method, less those with too few
     *     samples in them or outside them to be tested, and those too rare to ever be significant)
     * @param significantMethods methods whose method time or self time changed significantly
     * @param confidence of every interval
     */
    public record Significance(double fdr, String model, int replicatesA, String unitA, int replicatesB,
            String unitB, List<TrendPoint> dispersionTrend, double priorDegreesOfFreedom, double priorScale,
            double normalisationA, double normalisationB, int methods,
            int tested, int significantMethods, double confidence) {
    }

    /** The noise trend at one count: a share's variance relative to binomial sampling. */
    public record TrendPoint(long samplesPerReplicate, double dispersion) {
    }

    /**
     * One method compared: its method time (share of samples with a frame of the method,
     * recursion-aware) and self time (share of samples whose leaf is the method), each side's share
     * of all of its samples.
     *
     * @param change the more significant measure's label; {@code UNCHANGED} unless one is significant
     *     ({@code WITHHELD} when the comparison labels nothing)
     * @param contexts calling contexts of the method (matched by method path), largest |delta| first
     */
    public record MethodRow(String method, String change, Share methodTime, Share selfTime, List<Context> contexts) {
    }

    /**
     * One share on both sides and its change.
     *
     * @param countA samples behind the share on side a
     * @param samplesA every sample of side a
     * @param delta shareB - shareA
     * @param low lower end of the confidence interval of delta
     * @param pValue two-sided, before adjustment
     * @param qValue Benjamini-Hochberg adjusted; significant when at most the fdr
     * @param change {@code REGRESSION} (significant rise), {@code IMPROVEMENT} (significant fall),
     *     {@code UNCHANGED}, or {@code WITHHELD} (model {@code withheld}: no verdict)
     */
    public record Share(long countA, long samplesA, long countB, long samplesB, double shareA, double shareB,
            double delta, double low, double high, double pValue, double qValue, boolean significant,
            String change) {
    }

    /**
     * One calling context of a method: the method path from the outermost frame to the method, its
     * method samples in that context on each side and their shares of the side's samples. The two
     * sides' nodes are matched by method path ({@code CommonTree.byMethodPath}); a context one side
     * lacks has 0 samples there.
     */
    public record Context(List<String> path, long samplesA, long samplesB, double shareA, double shareB,
            double delta) {
    }

    /** Overlap (sum of min pweight over the common tree) under both weights. */
    public record Overlaps(double self, double total) {
    }

    /**
     * @param source {@code none} (threshold 1: every changed pair ranks), {@code threshold} (given),
     *     or {@code instances} (the overlap of the two noise sides)
     * @param threshold weight matching stops once the adjusted overlap reaches it
     * @param a the first noise side; null unless the source is {@code instances}
     */
    public record Noise(String source, double threshold, Side a, Side b) {
    }

    /**
     * @param manifests whether both deployments' CodeManifests were found (stages 1 and 2 need them)
     * @param added methods in the change list; 0 without manifests
     */
    public record Changes(boolean manifests, int added, int deleted, int modified, String note) {
    }

    /** Subtrees and nodes one stage excised from each side (seed 000 Table 4). */
    public record StageCounts(String stage, int subtreesA, int nodesA, int subtreesB, int nodesB) {
    }

    /** One frame of a calling context: the method and the line its caller was executing. */
    public record Frame(String method, int line) {
    }

    /**
     * One node of the common tree whose share of the weight changed.
     *
     * @param weightA the node's weight (self or total samples) on side a
     * @param pweightA weightA over side a's common-tree weight
     * @param delta pweightB - pweightA: positive when the node's share grew
     * @param overlapAfter overlap once this and every higher-ranked node are adjusted
     * @param methodTime the node's method over each whole side, with the baseline change arrow
     * @param nodeA the node's id on side a (decimal), for {@code /api/v1/context}
     * @param nodeB the matched node's id on side b; differs from nodeA when relaxed matching paired
     *     different call-site lines
     */
    public record WeightChange(String method, String nodeA, String nodeB, List<Frame> path, long weightA,
            long weightB, double pweightA, double pweightB, double delta, double overlapAfter,
            MethodTimeChange methodTime) {
    }

    /**
     * Method time of a method on each side (seed 002 Eq. 3.6, recursion-aware) and the change arrow
     * of b (current) against a (baseline), seed 002 Listing 3.6.
     *
     * @param angle +90 (halved or better) to -90 (doubled or worse), exact
     * @param degrees angle truncated toward zero
     * @param colour {@code #rrggbb}: green for an improvement, blue unchanged, red a regression
     * @param delta timeB - timeA
     * @param qValue of the method-time test ({@link Share#qValue})
     * @param change of the method time, from the test: {@code REGRESSION} only for a significant rise
     *     (delta &gt; 0), {@code IMPROVEMENT} only for a significant fall, else {@code UNCHANGED}; it
     *     describes the method time, not the node's weight delta of the row it is in
     */
    public record MethodTimeChange(long samplesA, long totalA, double timeA, long samplesB, long totalB,
            double timeB, double angle, int degrees, String colour, double delta, double qValue,
            boolean significant, String change) {
    }

    /**
     * One excised subtree and its likely cause (seed 000 Sect. 3.5).
     *
     * @param side {@code a} or {@code b}: the tree the subtree is in
     * @param nodes nodes removed with it
     * @param samples total samples through its root on its side
     * @param suspects methods most likely holding the cause, most likely first (the caller for
     *     stages ADDED, DELETED and SIDE_EFFECT; the modified ancestors from the closest upwards for
     *     MODIFIED)
     * @param node the subtree root's id on its side (decimal), for {@code /api/v1/context}
     */
    public record Attribution(String stage, String side, String method, String node, List<Frame> path, int nodes,
            long samples, List<String> suspects) {
    }
}
