package io.signalbox.bench;

import com.google.protobuf.util.Durations;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.load_stats.v3.LoadReportingServiceGrpc;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsResponse;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One simulated client's LRS stream, run as grpc-java's {@code LoadReportClient} runs it: on the
 * ADS channel, an opening request carrying the node; every response sets which clusters to report
 * ({@code send_all_clusters} or a list) and the interval, and (re)schedules the next report one
 * interval later; each report schedules the next. A failed stream is counted and reopened a bounded
 * number of times, as the ADS stream is.
 */
final class LoadReporter {

  private final int client;
  private final ManagedChannel channel;
  private final Node node;
  private final LoadReports reports;
  private final ScheduledExecutorService scheduler;
  private final AtomicInteger restarts = new AtomicInteger();
  final AtomicLong sent = new AtomicLong();
  final AtomicLong errors = new AtomicLong();

  // Guarded by this: the stream is written from the scheduler and answered on the event loop.
  private StreamObserver<LoadStatsRequest> requests;
  private ScheduledFuture<?> next;
  private long intervalNanos;
  private List<String> reported;
  private long lastReportNanos;
  private long report;

  LoadReporter(int client, ManagedChannel channel, Node node, LoadReports reports, ScheduledExecutorService scheduler) {
    this.client = client;
    this.channel = channel;
    this.node = node;
    this.reports = reports;
    this.scheduler = scheduler;
  }

  synchronized void start() {
    requests = LoadReportingServiceGrpc.newStub(channel).streamLoadStats(new Responses());
    // grpc-java counts each cluster's interval from when its stats began, i.e. from the stream's start here.
    lastReportNanos = System.nanoTime();
    requests.onNext(LoadReports.opening(node));
  }

  private synchronized void answered(LoadStatsResponse response) {
    reported = response.getSendAllClusters() ? null : List.copyOf(response.getClustersList());
    intervalNanos = Durations.toNanos(response.getLoadReportingInterval());
    schedule();
  }

  private void schedule() {
    if (next != null) {
      next.cancel(false);
      next = null;
    }
    if (intervalNanos > 0 && !scheduler.isShutdown()) {
      next = scheduler.schedule(this::send, intervalNanos, TimeUnit.NANOSECONDS);
    }
  }

  private synchronized void send() {
    if (requests == null) {
      return;
    }
    long now = System.nanoTime();
    requests.onNext(reports.report(node, client, report++, now - lastReportNanos, reported));
    lastReportNanos = now;
    sent.incrementAndGet();
    schedule();
  }

  private synchronized void failed() {
    requests = null;
    if (next != null) {
      next.cancel(false);
      next = null;
    }
    if (channel.isShutdown()) {
      return; // the fleet is closing: not an error
    }
    errors.incrementAndGet();
    if (restarts.incrementAndGet() <= AdsClient.MAX_RESTARTS && !scheduler.isShutdown()) {
      scheduler.schedule(this::start, 1, TimeUnit.SECONDS);
    }
  }

  private final class Responses implements StreamObserver<LoadStatsResponse> {
    @Override
    public void onNext(LoadStatsResponse response) {
      answered(response);
    }

    @Override
    public void onError(Throwable t) {
      failed();
    }

    @Override
    public void onCompleted() {
      failed();
    }
  }
}
