package io.cctflow.query.api.compare;

import io.cctflow.core.MethodId;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.query.api.Selection;
import java.util.Map;
import java.util.Optional;

/**
 * The method-level changes between the two sides of a comparison, from the CodeManifests of their
 * deployments (seed 000 Sect. 3.2), which enable PARCS' stages 1 and 2.
 *
 * @param changes {@link ChangeList#NONE} when there is nothing to compare or no manifests
 * @param manifests whether both sides' CodeManifests were found
 * @param added methods only side b's deployment has (likewise {@code deleted}, {@code modified})
 * @param note why the stages ran as they did, for the response
 */
public record CodeChanges(ChangeList changes, boolean manifests, int added, int deleted, int modified, String note) {

    private static CodeChanges none(String note) {
        return new CodeChanges(ChangeList.NONE, false, 0, 0, 0, note);
    }

    /** The changes from side a's deployment to side b's. */
    static CodeChanges between(CatalogueReader catalogue, Selection a, Selection b) {
        Optional<String> va = ComparisonSide.deployment(a);
        Optional<String> vb = ComparisonSide.deployment(b);
        if (va.isEmpty() || vb.isEmpty() || !a.service().equals(b.service())) {
            return none(
                    "a side spans several deployments: no change list; every difference is stage 3");
        }
        if (va.get().equals(vb.get())) {
            return none("one deployment on both sides: no code changes");
        }
        return fromManifests(catalogue, a.service(), va.get(), vb.get());
    }

    /**
     * The change list of two deployments' CodeManifests ({@link ChangeList#between}); none when
     * either deployment has no manifest stored. Also what profile migration ({@code migrate})
     * discriminates by.
     */
    public static CodeChanges fromManifests(CatalogueReader catalogue, String service, String versionA, String versionB) {
        Map<String, Long> a = catalogue.methodFingerprints(service, versionA);
        Map<String, Long> b = catalogue.methodFingerprints(service, versionB);
        if (a.isEmpty() || b.isEmpty()) {
            return none("no CodeManifest stored for " + service + "@" + (a.isEmpty() ? versionA : versionB)
                    + ": every difference is stage 3 (side effect or noise)");
        }
        ChangeList changes = ChangeList.between(a, b, MethodId::ofSignature);
        return new CodeChanges(changes, true, changes.added().length, changes.deleted().length,
                changes.modified().length, "change list from the CodeManifests of " + service + "@" + versionA
                        + " (" + a.size() + " methods) and " + service + "@" + versionB + " (" + b.size()
                        + " methods)");
    }
}
