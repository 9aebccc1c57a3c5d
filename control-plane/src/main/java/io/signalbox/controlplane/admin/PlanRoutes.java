package io.signalbox.controlplane.admin;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpStatus;
import io.signalbox.controlplane.plan.Plan;
import io.signalbox.controlplane.plan.PlanInputs;
import io.signalbox.controlplane.plan.Planner;
import io.signalbox.controlplane.views.EpochDetail;
import java.util.Map;

/**
 * {@code POST /api/v1/plan}: what some inputs would do to the running server, changing nothing
 * ({@link Planner}). A read in effect (role {@code viewer}, nothing audited), sent as a POST because
 * the inputs are the body, read by the one strict reader within the bodies' size limit.
 */
final class PlanRoutes {

  /**
   * @param configFile the config's path where the caller has it (relative endpoint files resolve against it)
   * @param config the config file's text; absent to plan endpoint files under the server's config
   * @param endpointFiles each endpoint file's text by its path where the caller has it
   */
  record PlanRequest(String configFile, String config, Map<String, String> endpointFiles) {}

  /** The plan, its exit code, and the field-level diff of the epoch it would make (the epoch diff's model). */
  record PlanAnswer(@JsonUnwrapped Plan plan, int exitCode, EpochDetail.Diff diff) {}

  private final Planner planner;
  private final ApiRouter router;

  PlanRoutes(Planner planner, ApiRouter router) {
    this.planner = planner;
    this.router = router;
  }

  void register() {
    router.write(HandlerType.POST, "/api/v1/plan", Access.READ, (ctx, caller) -> {
      PlanRequest body = router.requiredBody(ctx, PlanRequest.class);
      if (body.config() == null && (body.endpointFiles() == null || body.endpointFiles().isEmpty())) {
        throw new ApiException(HttpStatus.BAD_REQUEST, "bad_plan",
            "a plan needs a config (config and configFile) or endpoint files (endpointFiles)");
      }
      if (body.config() != null && (body.configFile() == null || body.configFile().isBlank())) {
        throw new ApiException(HttpStatus.BAD_REQUEST, "bad_configFile",
            "configFile must name the config's path (its endpoint files resolve against it)");
      }
      if (planner == null) {
        throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "plan_unavailable", "this server cannot plan");
      }
      Planner.Result result = planner.plan(new PlanInputs(body.configFile(), body.config(), body.endpointFiles()));
      ctx.json(new PlanAnswer(result.plan(), result.plan().exitCode(),
          result.planned() == null ? null : EpochDetail.diff(result.planned(), result.served())));
      // Changes nothing: no audit entry.
      return null;
    });
  }
}
