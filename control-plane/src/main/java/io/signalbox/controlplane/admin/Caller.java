package io.signalbox.controlplane.admin;

import io.signalbox.controlplane.config.TokenSettings.Role;

/**
 * Who made a request: the token's configured name and role, or {@code anonymous} when the admin
 * server runs without tokens (loopback only).
 *
 * @param role null for anonymous
 */
public record Caller(String name, Role role) {
  public static final Caller ANONYMOUS = new Caller("anonymous", null);
}
