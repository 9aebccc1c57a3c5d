package io.signalbox.controlplane.admin;

import io.signalbox.controlplane.fleet.FleetMetrics;
import io.signalbox.controlplane.fleet.FleetSampler;
import io.signalbox.controlplane.telemetry.FirstTraffic;
import io.signalbox.controlplane.telemetry.LoadSeries;

/**
 * The read models the admin API serves that run on their own: the composition root
 * ({@code SignalboxServer}) makes, starts and closes them, so the HTTP server starts no thread of
 * its own but its request pool (issue 41: one composition root starts every thread).
 *
 * @param sampler the fleet's convergence and lag, sampled on its thread
 * @param firstTraffic readiness to first traffic, polled on its thread
 * @param fleet the per group gauges, refreshed before the status answers
 * @param load the load series, refreshed before a scrape
 */
public record ReadModels(FleetSampler sampler, FirstTraffic firstTraffic, FleetMetrics fleet, LoadSeries load) {}
