package io.signalbox.controlplane.e2e;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * The endpoint file, wrong in every way an operator's tooling gets it wrong, while a grpc-xds
 * client calls through the server: each bad file is refused naming the file or the field (and the
 * rule), the published epoch stays, and no RPC fails. Then the valid file comes back and is served.
 *
 * <p>Two tables: {@link #mutations()}, valid files with one value made wrong (drawn by jqwik with a
 * fixed seed), and {@link #faults()}, hand-written faults of the file and the filesystem. The
 * dangerous faults (a FIFO, /dev/zero, a huge file) run last, so a server they break does not hide
 * what the other cases find.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadEndpointFilesIT {

  static final long SEED = 29_08_01L;
  static final int GENERATED = 60;

  @TempDir static Path dir;
  static SteadySignalbox sb;

  @BeforeAll
  static void start() throws Exception {
    sb = SteadySignalbox.start(dir);
  }

  @AfterAll
  static void stop() throws Exception {
    if (sb != null) {
      sb.close();
    }
  }

  /**
   * One value of one entry of the valid file made wrong. {@code kind} says how: a value out of its
   * range, of the wrong type, a bad address, a state not spelled as the enum, an unknown key, or
   * the entry listed twice.
   */
  record Mutation(String kind, int entry, String field, String value) {

    String apply(String valid) {
      List<String> lines = new ArrayList<>(valid.lines().toList());
      int line = 2 + entry;
      String original = lines.get(line);
      switch (kind) {
        case "unknown-key" -> lines.set(line, original.replace(" }", ", " + field + ": " + value + " }"));
        case "duplicate" -> lines.add(line + 1, original.replaceAll(field + ": [^,}]+", field + ": " + value));
        default -> lines.set(line, original.replaceAll(field + ": [^,}]+", field + ": " + value));
      }
      return String.join("\n", lines) + "\n";
    }

    /** The parts one refusal line must hold: the cluster and the field (or the endpoint), and the rule. */
    String[] expect(SteadySignalbox sb) {
      return switch (kind) {
        case "range" -> new String[] {"greeter", field, "[range]"};
        case "address" -> new String[] {"greeter", "address", "[address]"};
        case "duplicate" -> new String[] {"greeter", "127.0.0.1:" + sb.port("b" + (entry + 1)), "[duplicate.endpoint]"};
        default -> new String[] {"greeter", field};
      };
    }

    @Override
    public String toString() {
      return kind + ": entry " + entry + " " + field + ": " + value;
    }
  }

  static List<Mutation> mutations() {
    Arbitrary<Integer> entry = Arbitraries.integers().between(0, 2);
    Arbitrary<String[]> range = Arbitraries.oneOf(
        Arbitraries.oneOf(Arbitraries.integers().between(65_536, 10_000_000), Arbitraries.integers().between(-99_999, 0))
            .map(p -> new String[] {"port", Integer.toString(p)}),
        Arbitraries.oneOf(Arbitraries.integers().between(10_001, 1_000_000), Arbitraries.integers().between(-1000, 0))
            .map(w -> new String[] {"weight", Integer.toString(w)}),
        Arbitraries.integers().between(-1000, -1).map(p -> new String[] {"priority", Integer.toString(p)}));
    Arbitrary<String[]> type = Combinators.combine(Arbitraries.of("port", "weight", "priority"),
        // Not null or ~: YAML's null is an absent key, and weight and priority have defaults.
        Arbitraries.of("\"50051\"", "'7'", "1.5", "true", "[]", "{}", "0x10", "1e3", "\"\"", "five", "-0.0"))
        .as((f, v) -> new String[] {f, v});
    Arbitrary<String[]> address = Arbitraries.oneOf(
        Arbitraries.integers().between(256, 99_999).map(o -> "127.0.0." + o),
        Combinators.combine(Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8),
            Arbitraries.of("_", " ", "!", "@", "$", "%", "*", "(", "..", "/"),
            Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8)).as((a, c, b) -> a + c + b),
        Arbitraries.strings().withCharRange('a', 'z').ofLength(64).map(l -> l + ".example"))
        .map(a -> new String[] {"address", "'" + a + "'"});
    Arbitrary<String[]> state = Combinators.combine(Arbitraries.of("READY", "DRAINING", "ready", "UP", "HEALTHY",
            "EJECTED", "Draining"), Arbitraries.longs())
        .as((s, flips) -> {
          StringBuilder out = new StringBuilder();
          for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(((flips >> i) & 1) == 1 ? Character.toLowerCase(c) : c);
          }
          return out.toString();
        })
        .filter(s -> !List.of("WARMING", "READY", "DEGRADED", "DRAINING", "EJECTED").contains(s))
        .map(s -> new String[] {"state", s});
    Arbitrary<String[]> unknown = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(2).ofMaxLength(10)
        .filter(k -> !List.of("address", "port", "zone", "weight", "priority", "state").contains(k))
        .map(k -> new String[] {k, "1"});
    Arbitrary<String[]> duplicate = Arbitraries.of(new String[] {"weight", "1"}, new String[] {"weight", "7"},
        new String[] {"zone", "b"}, new String[] {"priority", "1"}, new String[] {"state", "DRAINING"});
    Arbitrary<Mutation> mutation = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Combinators.combine(entry, range).as((e, r) -> new Mutation("range", e, r[0], r[1]))),
        net.jqwik.api.Tuple.of(4, Combinators.combine(entry, type).as((e, r) -> new Mutation("type", e, r[0], r[1]))),
        net.jqwik.api.Tuple.of(3, Combinators.combine(entry, address).as((e, r) -> new Mutation("address", e, r[0], r[1]))),
        net.jqwik.api.Tuple.of(3, Combinators.combine(entry, state).as((e, r) -> new Mutation("state", e, r[0], r[1]))),
        net.jqwik.api.Tuple.of(2, Combinators.combine(entry, unknown)
            .as((e, r) -> new Mutation("unknown-key", e, r[0], r[1]))),
        net.jqwik.api.Tuple.of(2, Combinators.combine(entry, duplicate)
            .as((e, r) -> new Mutation("duplicate", e, r[0], r[1]))));
    return Mutations.distinct(mutation, SEED, GENERATED, Mutation::toString);
  }

  @Order(1)
  @ParameterizedTest(name = "{0}")
  @MethodSource("mutations")
  void refusesAMutatedFile(Mutation mutation) {
    SteadySignalbox.Round round = sb.round(mutation.toString());
    sb.ws.write("endpoints.yaml", mutation.apply(sb.validEndpoints()));
    round.awaitRefusal(mutation.expect(sb));
    round.assertNothingChanged();
    restore();
  }

  /**
   * A hand-written fault. {@code expect} is each refusal line's parts; {@code restoreFirst} is what
   * must be undone before the valid file can come back (a blocked FIFO reader, a directory).
   */
  record Fault(String name, ThrowingConsumer<SteadySignalbox> apply, List<String[]> expect) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** The source FAILED, with a problem line naming the file and the rule. */
  private static List<String[]> failed() {
    return List.of(new String[] {"FAILED"}, new String[] {"endpoints.yaml: ", "[source.unusable]"});
  }

  /** The file is read and refused as YAML: the source FAILED, the problem names the rule. */
  private static List<String[]> unparsable() {
    return List.of(new String[] {"FAILED"}, new String[] {"endpoints.yaml: ", "[parse]"});
  }

  /** The name resolves to no file (a loop, a dangling link): the source is not FRESH, the problem names the file. */
  private static List<String[]> missing() {
    return List.<String[]>of(new String[] {"endpoints.yaml: ", "[source.missing]"});
  }

  /** Every endpoint of greeter would go: the removal guard holds it. */
  private static List<String[]> held() {
    return List.<String[]>of(new String[] {"greeter", "guard."});
  }

  private static Fault content(String name, String text, List<String[]> expect) {
    return new Fault(name, s -> s.ws.write("endpoints.yaml", text), expect);
  }

  private static Fault bytes(String name, byte[] bytes, List<String[]> expect) {
    return new Fault(name, s -> replace(s, tmp -> Files.write(tmp, bytes)), expect);
  }

  static List<Fault> faults() {
    byte[] garbage = new byte[4096];
    new Random(SEED).nextBytes(garbage);
    String laughs = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        + Stream.iterate('b', c -> c <= 'i', c -> (char) (c + 1))
            .map(c -> c + ": &" + c + " [*" + (char) (c - 1) + ",*" + (char) (c - 1) + ",*" + (char) (c - 1) + ",*"
                + (char) (c - 1) + ",*" + (char) (c - 1) + ",*" + (char) (c - 1) + ",*" + (char) (c - 1) + ",*"
                + (char) (c - 1) + ",*" + (char) (c - 1) + "]\n")
            .reduce("", String::concat)
        + "clusters: *i\n";
    return List.of(
        content("empty file", "", held()),
        content("whitespace only", " \n\n   \n", held()),
        content("no clusters", "clusters: {}\n", held()),
        content("greeter with no endpoints", "clusters:\n  greeter: []\n", held()),
        new Fault("truncated in a flow mapping", s -> s.ws.write("endpoints.yaml",
            s.validEndpoints().substring(0, s.validEndpoints().indexOf("zone", 80))), unparsable()),
        new Fault("truncated in a key", s -> s.ws.write("endpoints.yaml",
            s.validEndpoints().substring(0, s.validEndpoints().indexOf("greeter") + 4)), unparsable()),
        new Fault("tabs for indentation", s -> s.ws.write("endpoints.yaml",
            s.validEndpoints().replace("\n    - ", "\n\t- ")), unparsable()),
        new Fault("a duplicate cluster key", s -> s.ws.write("endpoints.yaml",
            s.validEndpoints() + "  greeter:\n    - { address: 127.0.0.1, port: 1 }\n"), unparsable()),
        new Fault("a duplicate key in an entry", s -> s.ws.write("endpoints.yaml",
            s.validEndpoints().replaceFirst("zone: a", "zone: a, zone: b")), unparsable()),
        content("billion laughs (anchors and aliases)", laughs, unparsable()),
        new Fault("two YAML documents", s -> s.ws.write("endpoints.yaml", s.validEndpoints() + "---\n"
            + s.validEndpoints()), unparsable()),
        new Fault("a byte order mark inside", s -> s.ws.write("endpoints.yaml",
            s.validEndpoints().replace("  greeter:", "  \ufeffgreeter:")), List.<String[]>of(new String[] {"endpoints.yaml"})),
        bytes("binary garbage", garbage, unparsable()),
        bytes("UTF-16 with a byte order mark", "clusters:\n  greeter: []\n".getBytes(StandardCharsets.UTF_16),
            unparsable()),
        bytes("invalid UTF-8", concat("clusters:\n  gr".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xc3,
            (byte) 0x28}, "eeter: []\n".getBytes(StandardCharsets.UTF_8)), List.<String[]>of(new String[] {
            "endpoints.yaml"})),
        bytes("a NUL byte", "clusters:\n  greeter\u0000: []\n".getBytes(StandardCharsets.UTF_8), unparsable()),
        content("10,000 nested lists", "clusters: " + "[".repeat(10_000) + "]".repeat(10_000) + "\n", unparsable()),
        new Fault("a directory", s -> replace(s, Files::createDirectory), failed()),
        new Fault("a symlink to a directory", s -> replace(s, tmp -> Files.createSymbolicLink(tmp, dir)), failed()),
        new Fault("a symlink loop", s -> replace(s, tmp -> Files.createSymbolicLink(tmp, tmp.getFileName())),
            missing()),
        new Fault("a dangling symlink", s -> replace(s, tmp -> Files.createSymbolicLink(tmp, dir.resolve("gone"))),
            missing()),
        new Fault("a FIFO", s -> replace(s, BadEndpointFilesIT::mkfifo), failed()),
        new Fault("a symlink to /dev/zero", s -> replace(s, tmp -> Files.createSymbolicLink(tmp, Path.of("/dev/zero"))),
            failed()),
        new Fault("a huge file (sparse, 512 MiB)", s -> replace(s, tmp -> {
          try (RandomAccessFile f = new RandomAccessFile(tmp.toFile(), "rw")) {
            f.write(s.validEndpoints().getBytes(StandardCharsets.UTF_8));
            f.setLength(512L << 20);
          }
        }), failed()));
  }

  @Order(2)
  @ParameterizedTest(name = "{0}")
  @MethodSource("faults")
  void refusesAFaultyFile(Fault fault) throws Throwable {
    SteadySignalbox.Round round = sb.round(fault.name());
    fault.apply().accept(sb);
    for (String[] parts : fault.expect()) {
      round.awaitRefusal(parts);
    }
    round.assertNothingChanged();
    restore();
  }

  /** Puts what {@code make} creates at a temporary name in place of the endpoint file, by rename. */
  private static void deleteIfThere(Path p) throws java.io.IOException {
    if (Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      Files.delete(p);
    }
  }

  private static void replace(SteadySignalbox s, ThrowingConsumer<Path> make) throws Throwable {
    Path tmp = dir.resolve(".endpoints.fault");
    deleteIfThere(tmp);
    make.accept(tmp);
    if (Files.isDirectory(tmp, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      // rename(2) puts a directory only where nothing is, or an empty directory.
      Files.delete(s.endpointFile);
    }
    Files.move(tmp, s.endpointFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static void mkfifo(Path at) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("mkfifo", at.toString()).inheritIO().start();
    if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("mkfifo " + at + " failed");
    }
  }

  private static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /**
   * The valid file back, by rename (which also replaces a directory, FIFO or symlink), then served.
   * A reader blocked opening a FIFO is released first: a writer that opens and closes it.
   */
  private static void restore() {
    if (Files.exists(sb.endpointFile, java.nio.file.LinkOption.NOFOLLOW_LINKS)
        && !Files.isSymbolicLink(sb.endpointFile) && Files.isDirectory(sb.endpointFile)) {
      try {
        Files.delete(sb.endpointFile);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    if (Files.exists(sb.endpointFile, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(sb.endpointFile)
        && !Files.isRegularFile(sb.endpointFile) && !Files.isDirectory(sb.endpointFile)) {
      Path fifo = dir.resolve(".fifo-" + System.nanoTime());
      try {
        Files.move(sb.endpointFile, fifo, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      Thread release = new Thread(() -> {
        try (var out = Files.newOutputStream(fifo, java.nio.file.StandardOpenOption.APPEND)) {
          out.flush();
        } catch (IOException ignored) {
          // nobody was reading it
        }
      }, "release-fifo");
      release.setDaemon(true);
      release.start();
    }
    sb.ws.write("endpoints.yaml", sb.validEndpoints());
    sb.awaitEndpointsRestored();
  }
}
