package io.signalbox.controlplane.admin;

import io.signalbox.controlplane.telemetry.FirstTraffic;
import io.signalbox.controlplane.telemetry.LoadView;
import io.javalin.http.Context;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code GET /api/v1/clusters/{cluster}/load}: what the clients' load reports say of one cluster
 * ({@link LoadView}), summed over every client and replica. A served cluster nobody reports for
 * answers with empty figures, not 404: "no reports" is itself the answer an operator asks for.
 */
final class LoadRoutes {

  private final AdminBackend backend;
  private final ApiRouter router;
  private final FirstTraffic firstTraffic;

  LoadRoutes(AdminBackend backend, ApiRouter router, FirstTraffic firstTraffic) {
    this.backend = backend;
    this.router = router;
    this.firstTraffic = firstTraffic;
  }

  void register() {
    router.get("/api/v1/clusters/{cluster}/load", Access.READ, ctx -> {
      String cluster = served(ctx);
      ctx.json(LoadView.of(backend.load(), cluster, backend.clock().instant())
          .withFirstTraffic(firstTraffic.of(cluster)));
    });
  }

  /**
   * The clusters a load view is worth showing for, sorted: those served with {@code loadReporting}
   * on, and any other some client still reports for.
   */
  static List<String> reportingClusters(AdminBackend backend) {
    TreeSet<String> names = new TreeSet<>(backend.load().clusters());
    names.addAll(LoadView.optedIn(backend.view().get()));
    return List.copyOf(names);
  }

  /** The cluster in the path ({@link ClusterPath}), among the served clusters. */
  private String served(Context ctx) {
    return ClusterPath.of(ctx, backend, s -> s.resources(XdsType.CLUSTER).byName().keySet(), "");
  }
}
