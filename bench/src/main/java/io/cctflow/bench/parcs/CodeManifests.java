package io.cctflow.bench.parcs;

import io.cctflow.core.MethodId;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.graph.read.CatalogueReader;
import java.util.Map;

/**
 * Both releases' CodeManifests as stored by the pipeline: their sizes (PARCS Table 3) and the
 * change list between them (seed 000 Sect. 3.2).
 */
record CodeManifests(ReleaseReport.Code oldCode, ReleaseReport.Code newCode, ChangeList changes) {

    static CodeManifests read(CatalogueReader reader, String service, String oldVersion, String newVersion) {
        Map<String, Long> old = reader.methodFingerprints(service, oldVersion);
        Map<String, Long> neu = reader.methodFingerprints(service, newVersion);
        return new CodeManifests(code(old), code(neu), ChangeList.between(old, neu, MethodId::ofSignature));
    }

    /** Signatures are {@code class.method(descriptor)}: the class is what precedes the last dot before '('. */
    private static ReleaseReport.Code code(Map<String, Long> fingerprints) {
        long classes = fingerprints.keySet().stream()
                .map(s -> s.substring(0, s.lastIndexOf('.', s.indexOf('('))))
                .distinct().count();
        return new ReleaseReport.Code(Math.toIntExact(classes), fingerprints.size());
    }
}
