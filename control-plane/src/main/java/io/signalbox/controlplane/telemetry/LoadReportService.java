package io.signalbox.controlplane.telemetry;

import com.google.protobuf.util.Durations;
import io.envoyproxy.envoy.service.load_stats.v3.LoadReportingServiceGrpc;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;

/**
 * {@code envoy.service.load_stats.v3.LoadReportingService} on the xDS port, behind the same edge
 * (TLS, node identity, streams per connection) as ADS. A stream is answered once, on its first
 * request, with the interval and {@code send_all_clusters}; every request after that is a report,
 * handed to the {@link LoadAggregator}'s thread. Runs on the transport thread (the server uses a
 * direct executor), one call at a time per stream, so the stream's fields need no lock.
 */
final class LoadReportService extends LoadReportingServiceGrpc.LoadReportingServiceImplBase {

  private final LoadAggregator aggregator;
  private final LoadStatsResponse answer;

  LoadReportService(LoadAggregator aggregator, Duration interval) {
    this.aggregator = aggregator;
    // send_all_clusters: report every cluster the client has stats for. Naming clusters instead
    // would need the server to know each client's clusters, and @grpc/grpc-js-xds (1.14) never
    // reports the first cluster such a list names; Envoy and grpc-java accept either.
    this.answer = LoadStatsResponse.newBuilder()
        .setSendAllClusters(true)
        .setLoadReportingInterval(Durations.fromMillis(interval.toMillis()))
        .build();
  }

  @Override
  public StreamObserver<LoadStatsRequest> streamLoadStats(StreamObserver<LoadStatsResponse> responses) {
    return new StreamObserver<>() {
      private String nodeId;
      private boolean ended;

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
        }
        if (request.getClusterStatsCount() > 0) {
          aggregator.report(nodeId, request);
        }
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
