package io.signalbox.controlplane.e2e;

import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The config file of a running server, edited wrong, while a grpc-xds client calls through it:
 * every bad edit is refused naming the key (and the rule), or held when it would remove what
 * clients use, the published epoch stays, and no RPC fails. Then the valid file comes back.
 *
 * <p>{@link #mutations()} are the valid file with one value made wrong (jqwik, fixed seed);
 * {@link #faults()} are hand-written faults of the whole file.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadConfigFilesIT {

  static final long SEED = 29_08_03L;
  static final int GENERATED = 35;

  @TempDir static Path dir;
  static SteadySignalbox sb;
  static String servedClusters;

  @BeforeAll
  static void start() throws Exception {
    sb = SteadySignalbox.start(dir);
    servedClusters = sb.admin.get("/api/v1/clusters").body();
  }

  @AfterAll
  static void stop() throws Exception {
    if (sb != null) {
      sb.close();
    }
  }

  /**
   * The first match of the pattern {@code from} in the valid file replaced by {@code to};
   * {@code expect}: the parts of one refusal line.
   */
  record Mutation(String name, String from, String to, List<String> expect) {
    Mutation {
      from = from.startsWith("(?") ? from : java.util.regex.Pattern.quote(from);
    }

    String apply(String valid) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile(from).matcher(valid);
      if (!m.find()) {
        throw new IllegalStateException("the valid config has no " + from);
      }
      return m.replaceFirst(java.util.regex.Matcher.quoteReplacement(to));
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static List<Mutation> mutations() {
    Arbitrary<Mutation> lbPolicy = Arbitraries.of("round_robin", "Round_Robin", "ROUND-ROBIN", "RANDOM_ROBIN",
            "least_request", "Maglev", "RING", "ROUNDROBIN", "1", "\"\"", "[ROUND_ROBIN]", "{}")
        .map(v -> new Mutation("lbPolicy: " + v, "lbPolicy: ROUND_ROBIN", "lbPolicy: " + v, List.of("lbPolicy")));
    Arbitrary<Mutation> timeout = Arbitraries.oneOf(
            Arbitraries.integers().between(1, 999).map(i -> Integer.toString(i)),
            Arbitraries.integers().between(1, 999).map(i -> "\"" + i + "\""),
            Arbitraries.integers().between(1, 99).map(i -> i + "x"),
            Arbitraries.integers().between(1, 99).map(i -> "-" + i + "s"),
            Arbitraries.integers().between(1, 99).map(i -> i + " s"),
            Arbitraries.of("true", "~", "1.5", "[1s]", "PT1S", "1d"))
        .map(v -> new Mutation("connectTimeout: " + v, "connectTimeout: 1s", "connectTimeout: " + v,
            List.of("connectTimeout")));
    Arbitrary<Mutation> percent = Combinators.combine(Arbitraries.of("maxEjectionPercent", "massRemovalPercent"),
            Arbitraries.oneOf(Arbitraries.integers().between(101, 100_000).map(i -> Integer.toString(i)),
                Arbitraries.integers().between(-1000, -1).map(i -> Integer.toString(i)),
                Arbitraries.of("\"50\"", "50.5", "true", "50%")))
        .as((k, v) -> new Mutation(k + ": " + v, "connectTimeout: 1s", "connectTimeout: 1s\n    " + k + ": " + v,
            List.of(k)));
    Arbitrary<Mutation> reference = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(12)
        .filter(n -> !n.equals("greeter"))
        .flatMap(n -> Arbitraries.of(
            new Mutation("route to unknown cluster " + n, "cluster: greeter", "cluster: " + n,
                List.of("'" + n + "'", "[reference.cluster]")),
            new Mutation("listener to unknown route config " + n, "routeConfig: greeter", "routeConfig: " + n,
                List.of("'" + n + "'", "[reference.route-config]"))));
    Arbitrary<Mutation> unknownKey = Combinators.combine(
            Arbitraries.of("xds: {", "store: {", "  - name: greeter\n    lbPolicy", "reconcile: {", "rollout: {"),
            Arbitraries.strings().withCharRange('a', 'z').ofMinLength(3).ofMaxLength(10))
        .as((at, key) -> at.endsWith("{")
            ? new Mutation("unknown key " + key + " in " + at, at, at + " " + key + ": 1,", List.of(key, "[parse]"))
            : new Mutation("unknown key " + key + " in a cluster", at, at.replace("\n    lbPolicy",
                "\n    " + key + ": 1\n    lbPolicy"), List.of(key, "[parse]")));
    Arbitrary<Mutation> restartOnly = Arbitraries.oneOf(
        Arbitraries.integers().between(65_536, 1_000_000)
            .map(p -> new Mutation("xds.port: " + p, "(?-i)xds: \\{ port: \\d+", "xds: { port: " + p,
                List.of("port"))),
        Arbitraries.of("ftp://db/signalbox", "postgres", "http://x", "memoryy")
            .map(u -> new Mutation("store.url: " + u, "store: { url: memory }", "store: { url: " + u + " }",
                List.of("store.url"))),
        Arbitraries.of("0", "0s", "-1s", "forever", "\"1h\"")
            .map(t -> new Mutation("sources.registry.leaseTtl: " + t, "leaseTtl: 1h", "leaseTtl: " + t,
                List.of("leaseTtl"))),
        Arbitraries.strings().withCharRange('g', 'z').ofLength(64)
            .map(h -> new Mutation("a token sha256 that is not hex", "(?-i)role: viewer, sha256: [0-9a-f]+",
                "role: viewer, sha256: " + h, List.of("sha256"))));
    Arbitrary<Mutation> mutation = Arbitraries.oneOf(lbPolicy, timeout, percent, reference, unknownKey, restartOnly);
    return Mutations.distinct(mutation, SEED, GENERATED, Mutation::name);
  }

  @Order(1)
  @ParameterizedTest(name = "{0}")
  @MethodSource("mutations")
  void refusesAMutatedConfig(Mutation mutation) {
    SteadySignalbox.Round round = sb.round(mutation.name());
    String bad = mutation.apply(sb.validConfig());
    sb.ws.write("signalbox.yaml", bad);
    round.awaitRefusal(mutation.expect().toArray(String[]::new));
    round.assertNothingChanged();
    restore();
  }

  /** A hand-written fault of the whole file; {@code expect}: one refusal line's parts each. */
  record Fault(String name, ThrowingConsumer<SteadySignalbox> apply, List<String[]> expect) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Fault edit(String name, UnaryOperator<String> edit, String... expect) {
    return new Fault(name, s -> s.ws.write("signalbox.yaml", edit.apply(s.validConfig())), List.<String[]>of(expect));
  }

  private static Fault bytes(String name, byte[] bytes, String... expect) {
    return new Fault(name, s -> replace(s, tmp -> Files.write(tmp, bytes)), List.<String[]>of(expect));
  }

  static List<Fault> faults() {
    byte[] garbage = new byte[2048];
    new Random(SEED).nextBytes(garbage);
    StringBuilder laughs = new StringBuilder("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (char c = 'b'; c <= 'i'; c++) {
      String prev = "*" + (char) (c - 1);
      laughs.append(c).append(": &").append(c).append(" [").append(String.join(", ", java.util.Collections.nCopies(9,
          prev))).append("]\n");
    }
    return List.of(
        edit("empty file", v -> "", "signalbox.yaml"),
        edit("whitespace only", v -> "\n   \n\t\n", "signalbox.yaml"),
        edit("comments only", v -> "# nothing here\n# yet\n", "signalbox.yaml"),
        edit("truncated half-way", v -> v.substring(0, v.length() / 2), "signalbox.yaml"),
        edit("truncated in a flow mapping", v -> v.substring(0, v.indexOf("sha256") + 3), "signalbox.yaml"),
        edit("every listener removed", v -> v.replaceAll("(?s)listeners:.*?routeConfigs:", "listeners: []\nrouteConfigs:"),
            "listener"),
        edit("every route config removed", v -> v.replaceAll("(?s)routeConfigs:.*?clusters:",
            "routeConfigs: []\nclusters:").replace("routeConfig: greeter", "routeConfig: greeter2"), "route"),
        edit("listeners, routes and clusters removed", v -> v.substring(0, v.indexOf("listeners:")), "listener"),
        edit("tabs for indentation", v -> v.replace("\n  - name: greeter\n    lbPolicy", "\n\t- name: greeter\n\tlbPolicy"),
            "signalbox.yaml"),
        edit("a duplicate top-level key", v -> v + "clusters: []\n", "clusters", "[parse]"),
        edit("a duplicate key in a cluster", v -> v.replace("connectTimeout: 1s", "connectTimeout: 1s\n    "
            + "connectTimeout: 2s"), "connectTimeout", "[parse]"),
        edit("billion laughs (anchors and aliases)", v -> laughs + v, "signalbox.yaml"),
        edit("a second YAML document", v -> v + "---\n" + v, "signalbox.yaml"),
        edit("a list at the top", v -> "- " + v.replace("\n", "\n  "), "signalbox.yaml"),
        bytes("binary garbage", garbage, "signalbox.yaml"),
        bytes("UTF-16", "xds: { port: 1 }\n".getBytes(StandardCharsets.UTF_16), "signalbox.yaml"),
        new Fault("a directory", s -> replace(s, Files::createDirectory), List.<String[]>of(new String[] {
            "signalbox.yaml"})),
        new Fault("a dangling symlink", s -> replace(s, tmp -> Files.createSymbolicLink(tmp, dir.resolve("gone.yaml"))),
            List.<String[]>of(new String[] {"signalbox.yaml"})));
  }

  @Order(2)
  @ParameterizedTest(name = "{0}")
  @MethodSource("faults")
  void refusesAFaultyConfig(Fault fault) throws Throwable {
    SteadySignalbox.Round round = sb.round(fault.name());
    fault.apply().accept(sb);
    for (String[] parts : fault.expect()) {
      round.awaitRefusal(parts);
    }
    round.assertNothingChanged();
    restore();
  }

  private static void deleteIfThere(Path p) throws java.io.IOException {
    if (Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      Files.delete(p);
    }
  }

  private static void replace(SteadySignalbox s, ThrowingConsumer<Path> make) throws Throwable {
    Path tmp = dir.resolve(".signalbox.fault");
    deleteIfThere(tmp);
    make.accept(tmp);
    if (Files.isDirectory(tmp, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      // rename(2) puts a directory only where nothing is, or an empty directory.
      Files.delete(s.configFile);
    }
    Files.move(tmp, s.configFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** The valid config back (a directory in its place removed first), and greeter served as before. */
  private static void restore() {
    try {
      if (Files.isDirectory(sb.configFile, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        Files.delete(sb.configFile);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    sb.ws.write("signalbox.yaml", sb.validConfig());
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
        .until(() -> sb.admin.get("/api/v1/clusters").body().equals(servedClusters)
            && !sb.admin.status().path("pendingPublish").asBoolean() && rejectionSuperseded());
    sb.awaitEndpointsRestored();
  }

  /**
   * The valid file was seen: a rejection in force is superseded. Without this wait the next case's
   * edit could land inside the watcher's quiet period, the restore never seen, and the server would
   * rightly call the same violations a repeat of the rejection in force.
   */
  private static boolean rejectionSuperseded() {
    com.fasterxml.jackson.databind.JsonNode last = sb.admin.status().path("lastRejection");
    return last.isMissingNode() || last.isNull() || !last.path("supersededAt").isNull()
        && !last.path("supersededAt").isMissingNode();
  }
}
