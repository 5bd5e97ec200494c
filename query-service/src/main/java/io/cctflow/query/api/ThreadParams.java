package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.core.ThreadFilter;
import io.cctflow.core.ThreadNames;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.QueryParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which threads' samples a request counts (seed 002 Eq. 3.17-3.20): {@code thread=NAME}
 * (repeatable) selects a thread by name, normalised as the agent normalises it ({@code
 * pool-3-thread-17} selects the pool {@code pool-#-thread-#}, whose samples are stored together);
 * {@code thread-group=PREFIX} (repeatable) selects every stored (normalised) thread name starting
 * with the prefix, e.g. {@code http-nio-} for a server's request threads. A sample counts when its
 * thread is selected by any of them; without either parameter every sample counts. A filter that
 * selects no thread sampled in the selection is a 404 listing the threads there are.
 *
 * @param threads the normalised names of {@code thread}
 * @param groups the prefixes of {@code thread-group}
 */
public record ThreadParams(List<String> threads, List<String> groups) {
    public static final Set<String> PARAMS = Set.of("thread", "thread-group");
    /** Every thread: what endpoints without a thread filter count. */
    public static final ThreadParams ALL = new ThreadParams(List.of(), List.of());

    public static ThreadParams of(QueryParams params) {
        return new ThreadParams(params.all("thread").stream().map(ThreadNames::normalise).toList(),
                List.copyOf(params.all("thread-group")));
    }

    /** Whether the request counts every thread. */
    public boolean all() {
        return threads.isEmpty() && groups.isEmpty();
    }

    /** Whether a (normalised) thread name is selected. */
    public boolean selects(String name) {
        return all() || threads.contains(name) || groups.stream().anyMatch(name::startsWith);
    }

    /** The tree of the selected threads' samples ({@link ThreadFilter}); the tree itself without a filter. */
    public Cct apply(Cct tree) {
        if (all()) {
            return tree;
        }
        List<String> sampled = new ArrayList<>();
        boolean any = false;
        for (int t = 0; t < tree.threads(); t++) {
            String name = tree.threadName(t);
            any |= selects(name);
            sampled.add(name);
        }
        if (!any) {
            throw ApiException.notFound("no thread " + threads + " (parameter 'thread') or thread group " + groups
                    + " (parameter 'thread-group') was sampled in the selection; its threads: " + sampled);
        }
        return ThreadFilter.of(tree, this::selects);
    }
}
