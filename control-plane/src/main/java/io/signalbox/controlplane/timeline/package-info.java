/**
 * The timeline: what happened to the control plane, in one ordered list, read from what the store
 * already keeps (epochs and their causes, rejected candidates, the audit trail, NACK events); and
 * the system's own entries in the audit trail for what was kept nowhere else (holds raised and
 * released, source failures and recoveries, leader changes, automatic drops).
 */
package io.signalbox.controlplane.timeline;
