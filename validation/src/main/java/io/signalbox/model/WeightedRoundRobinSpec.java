package io.signalbox.model;

import java.time.Duration;

/**
 * Settings for {@link LbPolicy#WEIGHTED_ROUND_ROBIN} (client-side weighted round robin, gRFC A58:
 * endpoint weights from the endpoints' own ORCA load reports). Null components take the clients'
 * defaults.
 *
 * @param blackoutPeriod how long an endpoint must report before its weight is used (default 10s)
 * @param weightExpirationPeriod a weight not refreshed for this long is dropped (default 3m)
 * @param weightUpdatePeriod how often weights are recomputed (default 1s, at least 100ms)
 * @param errorUtilizationPenalty weight = qps / (utilization + penalty × eps/qps) (default 1.0)
 * @param enableOobLoadReport ask endpoints for out-of-band reports instead of per-call trailers
 * @param oobReportingPeriod how often out-of-band reports are asked for (default 10s)
 */
public record WeightedRoundRobinSpec(
    Duration blackoutPeriod,
    Duration weightExpirationPeriod,
    Duration weightUpdatePeriod,
    Double errorUtilizationPenalty,
    Boolean enableOobLoadReport,
    Duration oobReportingPeriod) {}
