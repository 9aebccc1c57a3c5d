package io.signalbox.controlplane.telemetry;

import com.google.protobuf.util.Durations;
import io.envoyproxy.envoy.service.load_stats.v3.LoadReportingServiceGrpc;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code envoy.service.load_stats.v3.LoadReportingService} on the xDS port, behind the same edge
 * (TLS, node identity, streams per connection) as ADS. A stream is answered once, on its first
 * request, with the interval and {@code send_all_clusters}; every request after that is a report,
 * handed to the {@link LoadAggregator}'s thread. Runs on the transport thread (the server uses a
 * direct executor), one call at a time per stream, so the stream's fields need no lock.
 */
final class LoadReportService extends LoadReportingServiceGrpc.LoadReportingServiceImplBase {

  /**
   * Reports of one stream handed over and not yet summed. A client sends one per interval; a stream
   * with this many waiting sends far faster than that, and each would otherwise hold its memory in
   * the aggregator's queue (ADS streams have {@code xds.limits.maxPendingRequests} for the same
   * reason). Such a stream is ended with RESOURCE_EXHAUSTED.
   */
  static final int MAX_WAITING_REPORTS = 16;

  private final LoadAggregator aggregator;
  private final LoadStatsResponse answer;

  LoadReportService(LoadAggregator aggregator, Duration interval) {
    this.aggregator = aggregator;
    // send_all_clusters: report every cluster the client has stats for. Naming clusters instead
    // would need the server to know each client's clusters, and @grpc/grpc-js-xds (1.14) never
    // reports the first cluster such a list names; Envoy and grpc-java accept either.
    // report_endpoint_granularity: Envoy then adds upstream_endpoint_stats per locality, so a drain
    // can read an endpoint's own in-flight count without a locality per endpoint (which would turn
    // Envoy's zone-aware routing off). grpc-java (LoadReportClient) and grpc-js (xds-client) read
    // only the interval and the cluster list from the answer, and keep reporting per locality.
    this.answer = LoadStatsResponse.newBuilder()
        .setSendAllClusters(true)
        .setReportEndpointGranularity(true)
        .setLoadReportingInterval(Durations.fromMillis(interval.toMillis()))
        .build();
  }

  @Override
  public StreamObserver<LoadStatsRequest> streamLoadStats(StreamObserver<LoadStatsResponse> responses) {
    return new StreamObserver<>() {
      private String nodeId;
      private boolean ended;
      private final AtomicInteger waiting = new AtomicInteger();

      @Override
      public void onNext(LoadStatsRequest request) {
        if (ended) {
          return;
        }
        if (nodeId == null) {
          if (request.getNode().getId().isEmpty()) {
            ended = true;
            responses.onError(Status.INVALID_ARGUMENT
                .withDescription("the first load report request must carry node.id").asRuntimeException());
            return;
          }
          nodeId = request.getNode().getId();
          aggregator.opened(nodeId);
          responses.onNext(answer);
          if (request.getClusterStatsCount() == 0) {
            return; // the opening request, before the client knows the interval
          }
        }
        if (waiting.get() >= MAX_WAITING_REPORTS) {
          end();
          responses.onError(Status.RESOURCE_EXHAUSTED.withDescription("load reports arrive faster than they are "
              + "summed: " + MAX_WAITING_REPORTS + " are waiting; a client reports once per load_reporting_interval")
              .asRuntimeException());
          return;
        }
        // Every later request is a report, an empty one too: it still says the client is there.
        waiting.incrementAndGet();
        aggregator.report(nodeId, request, waiting::decrementAndGet);
      }

      @Override
      public void onError(Throwable t) {
        end();
      }

      @Override
      public void onCompleted() {
        if (end()) {
          responses.onCompleted();
        }
      }

      private boolean end() {
        boolean wasOpen = !ended;
        ended = true;
        if (wasOpen && nodeId != null) {
          aggregator.closed(nodeId);
        }
        return wasOpen;
      }
    };
  }
}
