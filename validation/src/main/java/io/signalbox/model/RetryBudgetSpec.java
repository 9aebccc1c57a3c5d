package io.signalbox.model;

/**
 * Envoy's retry budget on a cluster: at most {@code budgetPercent} of the cluster's active requests
 * may be retries at once, and never fewer than {@code minRetryConcurrency}. Null components take
 * Envoy's defaults (20%, 3).
 */
public record RetryBudgetSpec(Integer budgetPercent, Integer minRetryConcurrency) {}
