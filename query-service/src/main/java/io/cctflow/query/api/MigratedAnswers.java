package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.core.ThreadFilter;
import io.cctflow.core.metrics.Scope;
import io.cctflow.core.migration.ImpactAnalysis;
import io.cctflow.core.migration.MigrationBlend;
import io.cctflow.core.migration.MigrationWeights;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.model.DeploymentRecord;
import io.cctflow.model.InstanceRecord;
import io.cctflow.query.api.compare.CodeChanges;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.QueryParams;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Profile migration for a young deployment (seed 001), the {@code migrate} parameter of the
 * endpoints that answer for one deployment: {@code off} (default: every figure measured), {@code
 * AG}, {@code AG_CALLER} or {@code BA} (the {@link ImpactAnalysis}). With a mode, the selection
 * must be one deployment ({@code version} or {@code at}); the previous deployment of the service
 * (the one whose first sample precedes it, {@code /api/v1/deployments} order) is loaded over its
 * own sample window (its last {@code limits.max-range} at most, every instance carrying the
 * request's labels, the request's thread filter applied), and cct-core's {@link MigrationBlend}
 * blends it with the new deployment's samples under the change list of both deployments'
 * CodeManifests ({@link CodeChanges#fromManifests}), each context's migrated part weighted by
 * precision and dropped once the new samples suffice there ({@link MigrationWeights}; the answer is
 * the measured one once every context is dropped). Without a previous deployment or a manifest on either side
 * the answer is the measured one and {@link Summary#note} says why. Thread-safe.
 */
public final class MigratedAnswers {
    public static final Set<String> PARAMS = Set.of("migrate");
    static final String OFF = "off";

    private final CatalogueReader catalogue;
    private final TreeSource trees;

    public MigratedAnswers(CatalogueReader catalogue, TreeSource trees) {
        this.catalogue = catalogue;
        this.trees = trees;
    }

    /**
     * How much of an answer is migrated, in every response of an endpoint that takes {@code migrate}.
     *
     * @param mode the {@code migrate} value
     * @param applied whether the answer holds migrated counts
     * @param migratedShare share of the answer's root total that came from the previous deployment
     * @param newSamples the new deployment's own samples in the selection (N)
     * @param pooledNewSamples its samples in contexts the previous deployment's profile also has,
     *     judged reusable (N<sub>r</sub>)
     * @param migratedSamples the previous deployment's reusable samples in the answer (R)
     * @param scale what the counts of contexts not pooled were multiplied by, {@code (R + Nr) / Nr}
     * @param betweenDeploymentVariance tau2 of {@link MigrationWeights}: how much the previous and
     *     new shares of pooled contexts disagree beyond sampling noise
     * @param blendedContexts pooled contexts whose answer keeps a migrated part
     * @param droppedContexts pooled contexts whose migrated part the rule dropped
     * @param previous the previous deployment as {@code service@version}, or null
     * @param rule {@link MigrationWeights#RULE}
     * @param phasedOut whether the rule dropped the migrated part of every context because the new
     *     samples suffice
     */
    public record Summary(String mode, boolean applied, double migratedShare, long newSamples, long pooledNewSamples,
            long migratedSamples, double scale, double betweenDeploymentVariance, int blendedContexts,
            int droppedContexts, String previous, String rule, boolean phasedOut, String note) {
    }

    /**
     * An answer's tree and how much of it is migrated.
     *
     * @param migratedPart the tree's nodes, same indexes, with only the migrated counts; null when
     *     nothing is migrated
     */
    public record Answer(Cct tree, Cct migratedPart, Summary summary) {

        /** The same scope on {@link #migratedPart()}: the migrated part of every figure computed in {@code scope}. */
        public Scope migratedScope(Scope scope) {
            boolean[] roots = new boolean[migratedPart.size()];
            for (int r : scope.roots()) {
                roots[r] = true;
            }
            return Scope.below(migratedPart, roots);
        }

        public boolean migrated() {
            return migratedPart != null;
        }
    }

    /** The {@code migrate} value, checked; {@code off} when absent. */
    public static String mode(QueryParams params) {
        return params.oneOf("migrate", "AG", "AG_CALLER", "BA", OFF).orElse(OFF);
    }

    /**
     * The answer for {@code selection}, whose measured tree (threads already filtered) is {@code
     * measured}.
     */
    public Answer answer(QueryParams params, Selection selection, ThreadParams threads, Cct measured) {
        String mode = mode(params);
        long n = measured.total(Cct.ROOT);
        if (mode.equals(OFF)) {
            return measured(measured, mode, null, "migrate=off: every figure is measured");
        }
        if (selection.version() == null) {
            throw ApiException.badRequest("parameter 'migrate' answers for one deployment: give 'version' or 'at'"
                    + " (or migrate=off)");
        }
        List<DeploymentRecord> deployments = catalogue.deployments(selection.service());
        int at = -1;
        for (int i = 0; i < deployments.size(); i++) {
            if (deployments.get(i).version().equals(selection.version())) {
                at = i;
            }
        }
        if (at <= 0) {
            return measured(measured, mode, null, "no previous deployment of " + selection.service() + " before "
                    + selection.version() + ": nothing to migrate");
        }
        DeploymentRecord previous = deployments.get(at - 1);
        String previousName = previous.service() + "@" + previous.version();
        CodeChanges changes = CodeChanges.fromManifests(catalogue, selection.service(), previous.version(),
                selection.version());
        if (!changes.manifests()) {
            return measured(measured, mode, previousName, changes.note() + "; nothing is migrated without them");
        }
        Cct old = previousTree(params, previous, threads);
        MigrationBlend blend = MigrationBlend.of(old, changes.changes(), ImpactAnalysis.valueOf(mode), measured);
        if (blend.phasedOut()) {
            return new Answer(measured, null, new Summary(mode, false, 0, n, blend.pooledNewSamples(), 0, 1,
                    blend.betweenDeploymentVariance(), 0, blend.droppedContexts(), previousName, MigrationWeights.RULE,
                    true, "phased out: the new samples suffice in all " + blend.droppedContexts()
                            + " contexts pooled with " + previousName));
        }
        return new Answer(blend.tree(), blend.migratedPart(), new Summary(mode, true, blend.migratedShare(), n,
                blend.pooledNewSamples(), blend.reusableOldSamples(), blend.scale(), blend.betweenDeploymentVariance(),
                blend.blendedContexts(), blend.droppedContexts(), previousName, MigrationWeights.RULE, false,
                "migrated from " + previousName + " under " + mode + "; " + changes.note() + " (" + changes.added()
                        + " added, " + changes.deleted() + " deleted, " + changes.modified() + " modified)"));
    }

    private static Answer measured(Cct tree, String mode, String previous, String note) {
        return new Answer(tree, null, new Summary(mode, false, 0, tree.total(Cct.ROOT), 0, 0, 1, 0, 0, 0, previous,
                MigrationWeights.RULE, false, note));
    }

    /** The previous deployment over its own window (the last limits.max-range of it), with the request's labels and threads. */
    private Cct previousTree(QueryParams params, DeploymentRecord previous, ThreadParams threads) {
        Map<String, String> labels = params.pairs("label");
        List<InstanceRecord> instances = catalogue.instances(previous.service()).stream()
                .filter(i -> i.version().equals(previous.version()))
                .filter(i -> Selection.hasLabels(i, labels))
                .toList();
        long to = Math.max(previous.lastSampleMillis(), previous.firstSampleMillis()) + 1;
        long from = Math.max(previous.firstSampleMillis(), to - trees.limits().maxRange().toMillis());
        Cct tree = trees.load(new Selection(previous.service(), previous.version(), instances,
                Instant.ofEpochMilli(from), Instant.ofEpochMilli(to)));
        return threads.all() ? tree : ThreadFilter.of(tree, threads::selects);
    }
}
