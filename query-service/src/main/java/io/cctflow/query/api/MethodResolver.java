package io.cctflow.query.api;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.http.ApiException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Methods as users name them ({@link MethodSelector}) to stored methods, and ids back to names. */
final class MethodResolver {
    private MethodResolver() {
    }

    /** Every overload the parameter names; 404 when none was ever sampled. */
    static List<MethodRecord> all(CatalogueReader catalogue, String param, String text) {
        MethodSelector selector = MethodSelector.parse(param, text);
        List<MethodRecord> methods = catalogue.methods(selector.className(), selector.methodName(), selector.descriptor());
        if (methods.isEmpty()) {
            throw ApiException.notFound("unknown method '" + selector + "' (parameter '" + param
                    + "'): it has never been sampled");
        }
        return methods;
    }

    /** The one method the parameter names; 400 when it names several overloads. */
    static MethodRecord single(CatalogueReader catalogue, String param, String text) {
        List<MethodRecord> methods = all(catalogue, param, text);
        if (methods.size() > 1) {
            throw ApiException.badRequest("parameter '" + param + "' names " + methods.size() + " overloads "
                    + methods.stream().map(MethodRecord::signature).toList() + "; add the descriptor to pick one");
        }
        return methods.get(0);
    }

    /** Signatures of method ids; an id without a stored method is shown as its hex id. */
    static Map<Long, String> signatures(CatalogueReader catalogue, Collection<Long> ids) {
        Map<Long, String> names = new HashMap<>();
        for (MethodRecord m : catalogue.methodsById(ids)) {
            names.put(m.id(), m.signature());
        }
        for (long id : ids) {
            names.putIfAbsent(id, "0x" + Long.toHexString(id));
        }
        return names;
    }
}
