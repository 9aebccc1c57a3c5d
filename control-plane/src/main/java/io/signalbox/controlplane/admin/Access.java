package io.signalbox.controlplane.admin;

import io.javalin.security.RouteRole;
import io.signalbox.controlplane.config.TokenSettings.Role;
import java.util.Set;

/**
 * What a route needs from its caller, attached to every route so the check cannot be forgotten
 * and the documented route table can be compared with what is registered.
 */
public enum Access implements RouteRole {
  /** Health and the dashboard's static files: never need a token. */
  PUBLIC("none", Set.of()),
  /** {@code /metrics}: public when {@code admin.openMetrics}, otherwise like {@link #READ}. */
  METRICS("viewer", Set.of(Role.VIEWER, Role.OPERATOR)),
  /** Every {@code GET /api/v1/} route. */
  READ("viewer", Set.of(Role.VIEWER, Role.OPERATOR)),
  /** State changes: reload, drain, rollback, freeze. */
  OPERATE("operator", Set.of(Role.OPERATOR)),
  /** Registry writes: what a service instance's own token may do, and operators too. */
  REGISTER("registrant", Set.of(Role.REGISTRANT, Role.OPERATOR));

  private final String label;
  private final Set<Role> roles;

  Access(String label, Set<Role> roles) {
    this.label = label;
    this.roles = roles;
  }

  /** The role named in docs and in 403 messages. */
  public String label() {
    return label;
  }

  boolean allows(Role role) {
    return roles.contains(role);
  }
}
