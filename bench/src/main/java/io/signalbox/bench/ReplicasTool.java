package io.signalbox.bench;

import static io.signalbox.bench.RunResult.percentile;

import io.signalbox.store.embedded.EmbeddedDatabase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Replicas under load (DESIGN "Replicas"): N Signalbox processes on one PostgreSQL (embedded, started
 * here), the fleet spread over them round-robin, endpoint changes written to the file every replica
 * reads. The leader builds and appends each epoch; followers learn of it by LISTEN/poll and load it.
 * Measured per change and client: from the file's rename to the client holding the new content,
 * reported separately for the leader's clients and the followers', and the time until a leader was
 * elected after every replica started.
 */
@Command(name = "replicas", mixinStandardHelpOptions = true,
    description = "Follower propagation: N replicas on one embedded PostgreSQL, clients spread over them.")
final class ReplicasTool implements Callable<Integer> {

  private static final Pattern ROLE = Pattern.compile("\"role\"\\s*:\\s*\"([a-z]+)\"");

  @Option(names = "--replicas", defaultValue = "3") int replicas;
  @Option(names = "--clients", defaultValue = "300", description = "Clients in all, spread round-robin") int clients;
  @Option(names = "--clusters", defaultValue = "100") int clusters;
  @Option(names = "--endpoints", defaultValue = "10", description = "Endpoints per cluster.") int endpoints;
  @Option(names = "--warmup-changes", defaultValue = "10", description = "Changes applied before measuring")
  int warmup;
  @Option(names = "--changes", defaultValue = "20", description = "Changes measured") int changes;
  @Option(names = "--mode", defaultValue = "sotw", converter = LoadTool.ModeConverter.class) Fleet.Mode mode;
  @Option(names = "--lease", defaultValue = "5s", description = "ha.leaseDuration") String lease;
  @Option(names = "--renew", defaultValue = "1s", description = "ha.renewInterval") String renew;
  // A fixed heap, as the image runs it: with -XX:+AlwaysPreTouch every expansion is touched inside a pause.
  @Option(names = "--server-jvm-opts", defaultValue = "-Xms1g -Xmx1g",
      description = "JVM options of each replica's process") String serverJvmOpts;
  @Mixin SignalboxJvmOptions signalboxJvm = new SignalboxJvmOptions();
  @Option(names = "--signalbox-jar", defaultValue = "control-plane/target/signalbox.jar") Path signalboxJar;
  @Option(names = "--work-dir", defaultValue = "${sys:java.io.tmpdir}/signalbox-bench") Path workDir;
  @Option(names = "--timeout", defaultValue = "PT60S") Duration timeout;
  @Option(names = "--kill-leader", description = "After measuring: SIGKILL the leader, write one more change at "
      + "once, and measure from the kill until every client holds it (the clients of the killed replica "
      + "reconnect to the survivors): the failover storm") boolean killLeader;

  @Spec CommandSpec spec;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Override
  public Integer call() throws Exception {
    java.io.PrintWriter out = spec.commandLine().getOut();
    java.io.PrintWriter err = spec.commandLine().getErr();
    if (replicas < 1 || replicas > 9 || clients < replicas || changes < 1) {
      err.println("--replicas must be 1..9, --clients at least --replicas, --changes at least 1");
      return 2;
    }
    if (!Files.isRegularFile(signalboxJar)) {
      err.println("no Signalbox jar at " + signalboxJar + " (build it: mvn -B -DskipTests package)");
      return 1;
    }
    Files.createDirectories(workDir);
    Path dir = Files.createTempDirectory(workDir, "replicas-");
    Workload workload = new Workload(clusters, endpoints);
    Files.writeString(dir.resolve("endpoints.yaml"), workload.endpointFile(0));
    int[] xds = new int[replicas];
    int[] admin = new int[replicas];
    List<ServerProcess> servers = new ArrayList<>();
    try (EmbeddedDatabase postgres = EmbeddedDatabase.start(dir.resolve("postgres"), LoadRun.freePort())) {
      try {
        long spawned = System.nanoTime();
        for (int r = 0; r < replicas; r++) {
          xds[r] = LoadRun.freePort();
          admin[r] = LoadRun.freePort();
          String id = "r" + (r + 1);
          Files.writeString(dir.resolve(id + ".yaml"), workload.config(xds[r], admin[r], postgres.jdbcUrl(), "100ms")
              .replace("store: { url: " + postgres.jdbcUrl() + ", dataDir: ./data }",
                  "store: { url: \"" + postgres.jdbcUrl() + "\", user: postgres }\n"
                      + "ha: { replicaId: " + id + ", leaseDuration: " + lease + ", renewInterval: " + renew + " }"));
          List<String> jvmOptions = new java.util.ArrayList<>(LoadTool.options(serverJvmOpts));
          jvmOptions.addAll(signalboxJvm.list());
          servers.add(ServerProcess.start(id, dir, jvmOptions,
              List.of("-jar", signalboxJar.toAbsolutePath().toString(), "serve", "--config", id + ".yaml")));
        }
        for (int r = 0; r < replicas; r++) {
          int port = admin[r];
          servers.get(r).awaitReady(() -> ServerProcess.signalboxServing(http, port), Duration.ofSeconds(180));
        }
        double electedMillis = awaitLeader(admin, spawned);
        String[] roles = roles(admin);
        out.printf(Locale.ROOT, "%d replicas ready (a leader elected, its first epoch served everywhere) %.0f ms "
            + "after the first was started (%s)%n", replicas, electedMillis, String.join(", ", roles));
        out.flush();
        try (Fleet fleet = new Fleet(clients, mode, workload, xds, false, 0, killLeader)) {
          fleet.connect();
          if (!fleet.awaitReady(timeout.toMillis() * 4)) {
            err.println(fleet.notReady() + " clients never got their configuration");
            return 1;
          }
          for (int k = 0; k < warmup; k++) {
            change(dir, workload, fleet, k);
          }
          List<List<Double>> byReplica = new ArrayList<>();
          for (int r = 0; r < replicas; r++) {
            byReplica.add(new ArrayList<>());
          }
          long unconverged = 0;
          for (int k = warmup; k < warmup + changes; k++) {
            ChangeTracker tracker = change(dir, workload, fleet, k);
            unconverged += tracker.unconverged();
            for (int i = 0; i < fleet.size(); i++) {
              if (tracker.seenAt(i) != 0) {
                byReplica.get(i % replicas).add((tracker.seenAt(i) - tracker.startedAt) / 1e6);
              }
            }
          }
          roles = roles(admin);
          print(out, roles, byReplica, unconverged);
          out.flush();
          if (killLeader) {
            unconverged += failover(out, dir, workload, fleet, servers, admin, roles, warmup + changes);
          }
          return unconverged == 0 ? 0 : 1;
        }
      } finally {
        servers.forEach(ServerProcess::close);
      }
    }
  }

  /** Writes change {@code k} (an atomic rename) and waits until every client holds it. */
  private ChangeTracker change(Path dir, Workload workload, Fleet fleet, int k) throws Exception {
    ChangeTracker tracker = write(dir, workload, fleet, k);
    tracker.awaitAll(timeout.toMillis());
    return tracker;
  }

  private static ChangeTracker write(Path dir, Workload workload, Fleet fleet, int k) throws IOException {
    Workload.Change change = workload.change(k);
    ChangeTracker tracker = new ChangeTracker(workload.clusterName(change.cluster()), change.address(),
        Workload.port(change.cluster()), change.weight(), fleet.size());
    fleet.expect(tracker);
    Path tmp = Files.writeString(dir.resolve(".endpoints.yaml.next"), workload.endpointFile(k + 1));
    tracker.startedAt = System.nanoTime();
    Files.move(tmp, dir.resolve("endpoints.yaml"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    return tracker;
  }

  /**
   * The failover storm: SIGKILL of the leader, change {@code k} written at once (only a new leader
   * can build it, once the dead one's lease has run out), and, from the kill, how long until a
   * survivor leads and until each client holds the change, the killed replica's clients included
   * (they reconnect to the survivors). DESIGN's bar: every client within 10 s, none lost.
   *
   * @return the clients that never held the change within --timeout
   */
  private long failover(java.io.PrintWriter out, Path dir, Workload workload, Fleet fleet, List<ServerProcess> servers,
      int[] admin, String[] roles, int k) throws Exception {
    int leader = Arrays.asList(roles).indexOf("leader");
    if (leader < 0) {
      throw new IllegalStateException("no leader to kill: " + String.join(", ", roles));
    }
    long killed = System.nanoTime();
    servers.get(leader).kill();
    ChangeTracker tracker = write(dir, workload, fleet, k);
    double electedMillis = Double.NaN;
    long deadline = killed + timeout.toNanos();
    while (System.nanoTime() < deadline && Double.isNaN(electedMillis)) {
      String[] now = roles(admin);
      for (int r = 0; r < now.length; r++) {
        if (r != leader && now[r].equals("leader")) {
          electedMillis = (System.nanoTime() - killed) / 1e6;
        }
      }
      Thread.sleep(20); // the election time is measured by this loop
    }
    tracker.awaitAll(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
    double[] sinceKill = new double[fleet.size()];
    int held = 0;
    for (int i = 0; i < fleet.size(); i++) {
      if (tracker.seenAt(i) != 0) {
        sinceKill[held++] = (tracker.seenAt(i) - killed) / 1e6;
      }
    }
    double[] sorted = Arrays.copyOf(sinceKill, held);
    Arrays.sort(sorted);
    long reconnected = fleet.total(s -> s.errors.get() > 0 ? 1 : 0);
    out.printf(Locale.ROOT, "%nfailover storm: leader r%d SIGKILLed; a survivor led %.0f ms later; the next change "
        + "held by %d of %d clients (%d reconnected) %.0f / %.0f / %.0f ms after the kill (p50 / p99 / max); %d lost%n",
        leader + 1, electedMillis, held, fleet.size(), reconnected, percentile(sorted, 50), percentile(sorted, 99),
        percentile(sorted, 100), tracker.unconverged());
    out.flush();
    return tracker.unconverged();
  }

  private double awaitLeader(int[] admin, long since) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      if (Arrays.asList(roles(admin)).contains("leader")) {
        return (System.nanoTime() - since) / 1e6;
      }
      Thread.sleep(20); // the election time is measured by this loop
    }
    throw new IllegalStateException("no replica leads after 60 s");
  }

  private String[] roles(int[] admin) throws InterruptedException {
    String[] roles = new String[admin.length];
    for (int r = 0; r < admin.length; r++) {
      try {
        HttpResponse<String> status = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + admin[r] + "/api/v1/status")).build(), HttpResponse.BodyHandlers.ofString());
        Matcher m = ROLE.matcher(status.body());
        roles[r] = m.find() ? m.group(1) : "?";
      } catch (IOException e) {
        roles[r] = "unreachable";
      }
    }
    return roles;
  }

  private void print(java.io.PrintWriter out, String[] roles, List<List<Double>> byReplica, long unconverged) {
    out.printf(Locale.ROOT, "%n%d %s clients over %d replicas, %d clusters x %d endpoints, %d changes measured%n%n",
        clients, mode.name().toLowerCase(Locale.ROOT), replicas, clusters, endpoints, changes);
    out.println("| replica | role | clients | change p50 (ms) | change p99 (ms) | max (ms) |");
    out.println("|---|---|---|---|---|---|");
    List<Double> leader = new ArrayList<>();
    List<Double> followers = new ArrayList<>();
    for (int r = 0; r < roles.length; r++) {
      double[] sorted = byReplica.get(r).stream().mapToDouble(Double::doubleValue).sorted().toArray();
      (roles[r].equals("leader") ? leader : followers).addAll(byReplica.get(r));
      out.printf(Locale.ROOT, "| r%d | %s | %d | %.1f | %.1f | %.1f |%n", r + 1, roles[r],
          clientsOf(r), percentile(sorted, 50), percentile(sorted, 99), percentile(sorted, 100));
    }
    double[] l = leader.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double[] f = followers.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    out.printf(Locale.ROOT, "%nleader's clients: p50 %.1f ms, p99 %.1f ms; followers' clients: p50 %.1f ms, "
        + "p99 %.1f ms (over the leader's: +%.1f ms at p50, +%.1f ms at p99); %d client-changes unconverged%n",
        percentile(l, 50), percentile(l, 99), percentile(f, 50), percentile(f, 99),
        percentile(f, 50) - percentile(l, 50), percentile(f, 99) - percentile(l, 99), unconverged);
  }

  private int clientsOf(int replica) {
    return clients / replicas + (replica < clients % replicas ? 1 : 0);
  }
}
