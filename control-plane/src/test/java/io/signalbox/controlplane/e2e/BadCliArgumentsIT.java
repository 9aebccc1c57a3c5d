package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The operator CLI given bad arguments against a running server (with the operator token, so a
 * command that got through would change something), while a grpc-xds client calls through it:
 * each is a usage error (exit 2, nothing on stdout, stderr's first line naming the argument),
 * nothing is sent, the epoch stays, and no RPC fails.
 *
 * <p>{@link #generated()} are valid commands with one argument made wrong (jqwik, fixed seed);
 * {@link #handWritten()} are unknown commands, options and missing arguments.
 */
class BadCliArgumentsIT {

  static final long SEED = 29_08_05L;

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

  /** {@code args} ({@code {b1}}: greeter's first endpoint's port) and the parts stderr's first line must hold. */
  record Args(List<String> args, List<String> expect) {
    @Override
    public String toString() {
      return String.join(" ", args).replaceAll("\\p{Cntrl}", "?");
    }
  }

  static Args args(List<String> expect, String... args) {
    return new Args(List.of(args), expect);
  }

  static List<Args> generated() {
    Arbitrary<String> badEndpoint = Arbitraries.oneOf(
        Arbitraries.integers().between(65_536, 9_999_999).map(p -> "127.0.0.1:" + p),
        Arbitraries.integers().between(256, 999).map(o -> "127.0.0." + o + ":50051"),
        Arbitraries.of("127.0.0.1", ":50051", "::1:8080", "127.0.0.1:", "127.0.0.1:http", "127.0.0.1:+80",
            "[::1]", "a_b:80", "127.0.0.1:-1", "127.0.0.1:0", "[zz::1]:80", "host..local:80"));
    Arbitrary<Args> endpoint = Combinators.combine(Arbitraries.of("drain", "undrain", "eject", "why"), badEndpoint)
        .as((cmd, e) -> args(List.of("ADDRESS:PORT"), cmd, "greeter", e));
    Arbitrary<String> badDuration = Arbitraries.oneOf(
        Arbitraries.integers().between(1, 999).map(i -> Integer.toString(i)),
        Arbitraries.integers().between(1, 99).map(i -> i + "d"),
        Arbitraries.integers().between(1, 99).map(i -> "-" + i + "s"),
        Arbitraries.of("soon", "PT5M", "5 m", "1.5s", "", "s"));
    Arbitrary<Args> duration = Combinators.combine(Arbitraries.of("--deadline", "--timeout"), badDuration)
        .as((opt, d) -> args(List.of(opt), "drain", "greeter", "127.0.0.1:{b1}", opt, d));
    Arbitrary<Args> waitTimeout = badDuration.map(d -> args(List.of("--timeout"), "wait", "--timeout", d));
    Arbitrary<Args> limit = Combinators.combine(Arbitraries.of("epochs", "clients"),
            Arbitraries.oneOf(Arbitraries.of("ten", "1.5", "", "0x10", "9999999999999"),
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(5)))
        .as((cmd, n) -> args(List.of("--limit"), cmd, "--limit", n));
    Arbitrary<Args> rollback = Arbitraries.of("latest", "1.5", "", "one", "0x1")
        .map(n -> args(List.of("--to"), "rollback", "--to", n));
    Arbitrary<Args> server = Arbitraries.oneOf(Arbitraries.of("127.0.0.1:8080", "ftp://127.0.0.1:21", "http://",
            "http:/x", "localhost", "://x:1"),
        Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8))
        .map(s -> args(List.of("--server"), "status", "--server", s));
    Arbitrary<Args> output = Arbitraries.oneOf(Arbitraries.of("xml", "JSON", "yaml", "Table", ""),
            Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(6)
                .filter(o -> !o.equals("json") && !o.equals("table")))
        .map(o -> args(List.of("--output"), "status", "--output", o));
    Arbitrary<Args> unknownOption = Combinators.combine(Arbitraries.of("status", "freeze", "drain", "epochs"),
            Arbitraries.strings().withCharRange('a', 'z').ofMinLength(2).ofMaxLength(8))
        .as((cmd, o) -> cmd.equals("drain") ? args(List.of("--" + o), cmd, "greeter", "127.0.0.1:{b1}", "--" + o)
            : args(List.of("--" + o), cmd, "--" + o));
    return Mutations.distinct(Arbitraries.oneOf(endpoint, duration, waitTimeout, limit, rollback, server, output,
        unknownOption), SEED, 40, Args::toString);
  }

  static List<Args> handWritten() {
    return List.of(
        args(List.of("nonsense"), "nonsense"),
        args(List.of("Status"), "Status"),
        args(List.of("CLUSTER"), "endpoints"),
        args(List.of("CLUSTER"), "drain"),
        args(List.of("ADDRESS:PORT"), "eject", "greeter"),
        args(List.of("CLUSTER"), "confirm"),
        args(List.of("EPOCH_B"), "diff", "1"),
        args(List.of("abc"), "diff", "abc", "2"),
        args(List.of("--fraction"), "wait", "--fraction", "2.5"),
        args(List.of("--fraction"), "wait", "--fraction", "half"),
        args(List.of("--epoch"), "wait", "--epoch", "latest"),
        args(List.of("--limit"), "epochs", "--limit"),
        args(List.of("--reason"), "freeze", "--reason"),
        args(List.of("extra"), "status", "extra"),
        args(List.of("extra"), "freeze", "extra"),
        args(List.of("--config"), "validate"),
        args(List.of("--config"), "serve"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("generated")
  void refusesAGeneratedBadArgument(Args c) {
    refusesBadArguments(c);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("handWritten")
  void refusesAHandWrittenBadCommandLine(Args c) {
    refusesBadArguments(c);
  }

  private static void refusesBadArguments(Args c) {
    SteadySignalbox.Round round = sb.round(c.toString());
    List<String> argv = new ArrayList<>();
    for (String a : c.args()) {
      argv.add(a.replace("{b1}", Integer.toString(sb.port("b1"))));
    }
    if (!argv.contains("--server") && !List.of("validate", "serve").contains(argv.get(0))) {
      argv.addAll(List.of("--server", "http://127.0.0.1:" + sb.server.adminPort()));
    }
    if (!List.of("validate", "serve").contains(argv.get(0))) {
      argv.addAll(List.of("--token", SteadySignalbox.OPERATOR_TOKEN));
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));

    int exit = cli.execute(argv.toArray(String[]::new));

    assertThat(exit).as("%s: %s", c, err).isEqualTo(2);
    assertThat(out.toString()).as("%s: stdout", c).isEmpty();
    String first = err.toString().lines().findFirst().orElse("");
    for (String part : c.expect()) {
      assertThat(first).as("%s: stderr's first line", c).contains(part);
    }
    round.assertNothingChanged();
  }
}
