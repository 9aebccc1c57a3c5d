package io.signalbox.controlplane.admin;

import io.signalbox.validation.ClosestNames;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.validation.NameRules;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@code {cluster}} of a route's path, checked the same way by every route that takes one: 400
 * when no cluster could have that name (validation's {@link NameRules}), 503 before the first epoch,
 * 404 with the closest names when the published epoch has no such cluster.
 */
final class ClusterPath {

  private ClusterPath() {}

  /** The newest published epoch; 503 {@code no_epoch} before the first. */
  static Snapshot published(AdminBackend backend) {
    Snapshot s = backend.view().get().snapshot();
    if (s == null) {
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "no_epoch", "no epoch has been published yet");
    }
    return s;
  }

  /**
   * The cluster in the path, if the published epoch has it among {@code names}.
   *
   * @param names the names of the published epoch a cluster in this path must be among
   * @param what how the 404 describes them, after "no cluster 'x'": "" or e.g. " with EDS endpoints"
   */
  static String of(Context ctx, AdminBackend backend, Function<Snapshot, Set<String>> names, String what) {
    String cluster = ctx.pathParam("cluster");
    NameRules.nameProblem(cluster).ifPresent(problem -> {
      throw new ApiException(HttpStatus.BAD_REQUEST, "bad_cluster", "cluster " + problem);
    });
    Set<String> known = names.apply(published(backend));
    if (!known.contains(cluster)) {
      throw new ApiException(HttpStatus.NOT_FOUND, "unknown_cluster",
          "no cluster '" + cluster + "'" + what + ClosestNames.hint(cluster, known));
    }
    return cluster;
  }
}
