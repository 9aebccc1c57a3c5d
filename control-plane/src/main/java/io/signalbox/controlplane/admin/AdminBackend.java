package io.signalbox.controlplane.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.source.registry.RegistrySource;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;

/**
 * What the admin API reads and drives.
 *
 * @param reload re-reads the config file (what {@code POST /api/v1/reload} and SIGHUP do)
 * @param registry the REST registry; null when {@code sources.registry.enabled} is false
 */
public record AdminBackend(Reconciler reconciler, XdsServer xds, SnapshotStore store, Runnable reload,
    PrometheusMeterRegistry meters, Clock clock, RegistrySource registry) {}
