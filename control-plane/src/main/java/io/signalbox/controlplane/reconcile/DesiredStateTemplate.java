package io.signalbox.controlplane.reconcile;

import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import java.util.List;
import java.util.Map;

/** The operator's configuration, waiting for the merged endpoints of every source. */
@FunctionalInterface
public interface DesiredStateTemplate {
  DesiredState with(Map<String, List<EndpointSpec>> endpoints);
}
