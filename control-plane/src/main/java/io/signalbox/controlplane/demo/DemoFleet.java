package io.signalbox.controlplane.demo;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the demo runs around a server: its xDS clients (three grpc-xds channels in two node groups
 * sending steady traffic, one raw client that ACKs late), a weight change now and then so there
 * are epochs to converge on, and the per-backend traffic report.
 */
public final class DemoFleet implements AutoCloseable {

  /** The demo's clients: two groups of grpc-xds clients, and one slow proxy in a group of its own. */
  public static final List<XdsClients.Node> NODES = List.of(
      new XdsClients.Node("web-1", "web", "a"),
      new XdsClients.Node("web-2", "web", "b"),
      new XdsClients.Node("batch-1", "batch", "a"));
  public static final String SLOW_NODE = "edge-slow-1";
  public static final String SLOW_GROUP = "edge";

  /** How the fleet behaves; the demo command's options. */
  public record Settings(Duration requestEvery, Duration ackDelay, Duration churnEvery, Duration reportEvery) {}

  private final XdsClients clients;
  private final SlowAckingClient slow;
  private final ScheduledExecutorService timers;

  private DemoFleet(XdsClients clients, SlowAckingClient slow, ScheduledExecutorService timers) {
    this.clients = clients;
    this.slow = slow;
    this.timers = timers;
  }

  /** Starts the clients against {@code 127.0.0.1:xdsPort}, the weight changes and the report lines to {@code out}. */
  public static DemoFleet start(int xdsPort, DemoFiles files, DemoBackends backends, Settings settings, PrintWriter out) {
    XdsClients clients = XdsClients.start(xdsPort, DemoFiles.LISTENER, NODES, settings.requestEvery());
    SlowAckingClient slow = SlowAckingClient.start(xdsPort, SLOW_NODE, SLOW_GROUP, DemoFiles.CLUSTER,
        settings.ackDelay());
    ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setNameFormat("demo-timers").setDaemon(true).build());
    TrafficReport report = new TrafficReport(backends.all(), settings.reportEvery());
    long reportMs = settings.reportEvery().toMillis();
    timers.scheduleAtFixedRate(() -> {
      out.println(report.next());
      out.flush();
    }, reportMs, reportMs, TimeUnit.MILLISECONDS);
    if (!settings.churnEvery().isZero()) {
      Churn churn = new Churn(files, backends, out);
      long churnMs = settings.churnEvery().toMillis();
      timers.scheduleAtFixedRate(churn::step, churnMs, churnMs, TimeUnit.MILLISECONDS);
    }
    return new DemoFleet(clients, slow, timers);
  }

  /**
   * Toggles the last backend's weight between 1 and 2, so new epochs keep reaching the clients
   * (and the slow one lags behind each). It stops for good once the user edits the endpoint file:
   * the demo must never overwrite their edit.
   */
  private static final class Churn {
    private final DemoFiles files;
    private final DemoBackends backends;
    private final PrintWriter out;
    private String written;
    private int weight = 1;
    private boolean stopped;

    Churn(DemoFiles files, DemoBackends backends, PrintWriter out) {
      this.files = files;
      this.backends = backends;
      this.out = out;
      this.written = read();
    }

    void step() {
      if (stopped) {
        return;
      }
      try {
        if (!read().equals(written)) {
          stop("was edited; the demo no longer changes weights in it");
          return;
        }
        weight = weight == 1 ? 2 : 1;
        files.writeEndpoints(backends.all(), weight);
        written = read();
      } catch (UncheckedIOException e) {
        // An exception would end the schedule silently; say why the weights stop changing.
        stop("could not be read or written (" + e.getCause().getMessage() + "); the demo no longer changes weights in it");
      }
    }

    private void stop(String why) {
      stopped = true;
      out.println("demo: " + files.endpoints() + " " + why);
      out.flush();
    }

    private String read() {
      try {
        return Files.readString(files.endpoints());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @Override
  public void close() {
    timers.shutdownNow();
    clients.close();
    slow.close();
  }
}
