package io.signalbox.controlplane.admin;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpStatus;
import io.signalbox.model.CapacitySpec;
import io.signalbox.source.registry.Lease;
import io.signalbox.source.registry.Leases;
import io.signalbox.source.registry.Naming;
import io.signalbox.source.registry.Registration;
import io.signalbox.source.registry.RegistrySource;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The REST registry (DESIGN §6): service instances register themselves with a lease, renew it, and
 * deregister. Every request is checked completely before anything is written.
 */
final class RegistryRoutes {

  private static final String ENDPOINT_PATH = "/api/v1/registry/{cluster}/endpoints/{endpoint}";

  /** Null when the registry is disabled. */
  private final RegistrySource registry;
  private final ApiRouter router;

  RegistryRoutes(RegistrySource registry, ApiRouter router) {
    this.registry = registry;
    this.router = router;
  }

  /** One registration as viewers see it. */
  record LeaseView(String cluster, String endpoint, String zone, int weight, Map<String, String> metadata,
      String registeredBy, Instant registeredAt, Instant expiresAt, String origin, CapacitySpec capacity,
      String hostname, String hashKey, List<String> additionalAddresses) {

    static LeaseView of(Lease l) {
      return new LeaseView(l.cluster(), l.endpoint(), l.zone(), l.weight(), l.metadata(), l.registeredBy(),
          l.createdAt(), l.expiresAt(), l.origin(), l.capacityRps() == null ? null : new CapacitySpec(l.capacityRps()),
          l.naming().hostname(), l.naming().hashKey(), l.naming().additionalAddresses());
    }
  }

  void register() {
    router.get("/api/v1/registry", Access.READ,
        ctx -> ctx.json(registry().leases().stream().map(LeaseView::of).toList()));
    router.write(HandlerType.PUT, ENDPOINT_PATH, Access.REGISTER, (ctx, caller) -> {
      RegistrySource source = registry();
      Registration.Body body = router.body(ctx, Registration.Body.class);
      Registration r = parse(ctx, body);
      RegistrySource.Outcome outcome = call(() -> source.register(r, caller.role() == null ? null : caller.name()));
      if (outcome instanceof RegistrySource.Refused refused) {
        throw new ApiException(HttpStatus.CONFLICT, refused.rule().replace('.', '_').replace('-', '_'),
            refused.message());
      }
      RegistrySource.Registered result = (RegistrySource.Registered) outcome;
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("cluster", r.cluster());
      answer.put("endpoint", r.endpoint());
      answer.put("expiresAt", result.lease().expiresAt());
      ctx.status(result.created() ? HttpStatus.CREATED : HttpStatus.OK).json(answer);
      // A renewal that changes nothing comes every few seconds from every instance: not audited.
      return result.changed() ? new ApiRouter.Audit(result.created() ? "register" : "re-register",
          r.cluster() + "/" + r.endpoint(), "zone " + (r.zone().isEmpty() ? "-" : r.zone()) + ", weight "
          + r.weight() + (r.capacityRps() == null ? "" : ", capacity " + r.capacityRps() + " rps")
          + naming(r.naming())) : null;
    });
    router.write(HandlerType.DELETE, ENDPOINT_PATH, Access.REGISTER, (ctx, caller) -> {
      RegistrySource source = registry();
      Registration r = parse(ctx, null);
      if (!call(() -> source.deregister(r.cluster(), r.address(), r.port()))) {
        throw new ApiException(HttpStatus.NOT_FOUND, "unknown_registration",
            "cluster '" + r.cluster() + "' has no registration of " + r.endpoint());
      }
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("cluster", r.cluster());
      answer.put("endpoint", r.endpoint());
      answer.put("deregistered", true);
      ctx.json(answer);
      return new ApiRouter.Audit("deregister", r.cluster() + "/" + r.endpoint(), "");
    });
  }

  /** The declared hostname, hash key and additional addresses as the audit entry lists them; empty for none. */
  private static String naming(Naming n) {
    return (n.hostname().isEmpty() ? "" : ", hostname " + n.hostname())
        + (n.hashKey().isEmpty() ? "" : ", hashKey " + n.hashKey())
        + (n.additionalAddresses().isEmpty() ? "" : ", additionalAddresses " + String.join(",", n.additionalAddresses()));
  }

  private RegistrySource registry() {
    if (registry == null) {
      throw new ApiException(HttpStatus.NOT_FOUND, "registry_disabled",
          "the REST registry is disabled (sources.registry.enabled: false)");
    }
    return registry;
  }

  private static Registration parse(Context ctx, Registration.Body body) {
    Registration.Parsed parsed = Registration.parse(ctx.pathParam("cluster"), ctx.pathParam("endpoint"), body);
    if (parsed instanceof Registration.Invalid bad) {
      throw new ApiException(HttpStatus.BAD_REQUEST, bad.code(), bad.message());
    }
    return ((Registration.Ok) parsed).registration();
  }

  /** The store's outage as the API reports it everywhere: 503, and nothing was changed. */
  private static <T> T call(Supplier<T> work) {
    try {
      return work.get();
    } catch (Leases.Unavailable e) {
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "store_unavailable",
          "the store cannot be reached: " + e.getMessage());
    }
  }
}
