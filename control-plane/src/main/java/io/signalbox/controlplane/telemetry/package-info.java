/**
 * Load reports (LRS, {@code envoy.service.load_stats.v3}) from the data plane: the server every
 * replica runs beside ADS, the per-interval aggregation, and {@link
 * io.signalbox.controlplane.telemetry.FleetLoad}, the read side the API, the CLI, the dashboard and
 * drains use. Figures are summed over clients and replicas; see {@code docs/telemetry.md}.
 */
package io.signalbox.controlplane.telemetry;
