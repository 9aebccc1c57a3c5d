package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The admin HTTP API and the REST registry, sent what no client should send, over raw sockets,
 * while a grpc-xds client calls through the server: every request gets its refusal (status and
 * the error's {@code code}; a framing error its 4xx), never a 500, and changes no epoch; no RPC fails.
 *
 * <p>{@link #registryBodies()}, {@link #registryPaths()} and {@link #operatorBodies()} are valid
 * requests with one part made wrong, drawn by jqwik with a fixed seed; {@link #requests()} (paths,
 * methods, headers, roles) and {@link #framing()} are hand-written.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadAdminRequestsIT {

  static final long SEED = 29_08_02L;
  static final String REGISTRATION = "/api/v1/registry/orders/endpoints/10.0.0.1:8080";
  /** Endpoint b1 of greeter; {@code {b1}} is its port, filled in when the server runs. */
  static final String ENDPOINT = "/api/v1/clusters/greeter/endpoints/127.0.0.1:{b1}";
  static final String VALID_REGISTRATION = "{\"zone\": \"a\", \"weight\": 3, \"metadata\": {\"k\": \"v\"}}";
  static final String OPERATOR = SteadySignalbox.OPERATOR_TOKEN;
  static final String VIEWER = SteadySignalbox.VIEWER_TOKEN;
  static final String REGISTRANT = SteadySignalbox.REGISTRANT_TOKEN;

  @TempDir static Path dir;
  static SteadySignalbox sb;

  @BeforeAll
  static void start() throws Exception {
    sb = SteadySignalbox.start(dir);
    // A lease to renew and to delete wrongly: registered before the cases, so its epoch is the baseline.
    RawHttp.Answer registered = send(json("PUT", REGISTRATION, REGISTRANT, VALID_REGISTRATION, Set.of(), ""));
    assertThat(registered.status()).as(registered.text()).isEqualTo(201);
    sb.awaitEndpointsRestored();
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
        .until(() -> sb.admin.getJson("/api/v1/clusters/orders/endpoints").size() == 1);
  }

  @AfterAll
  static void stop() throws Exception {
    if (sb != null) {
      sb.close();
    }
  }

  /**
   * One request (its head without the blank line, {@code {b1}} filled in at run time) and the
   * refusal it must get: one of {@code statuses}, and the error {@code code} when not empty.
   */
  record Request(String name, String head, byte[] body, Set<Integer> statuses, String code) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Request json(String method, String path, String token, String body, Set<Integer> statuses, String code) {
    byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    String head = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
        + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n");
    String shown = body == null ? "" : " " + (body.length() > 50 ? body.substring(0, 50) + "..." : body);
    return new Request(method + " " + path + shown.replaceAll("\\p{Cntrl}", "?"), head, bytes, statuses, code);
  }

  static Request raw(String name, String head, String body, Set<Integer> statuses) {
    return new Request(name, head, body.getBytes(StandardCharsets.ISO_8859_1), statuses, "");
  }

  /** The valid registration with one field's value replaced (or an unknown field added). */
  static List<Request> registryBodies() {
    Arbitrary<String> controlChar = Arbitraries.of("\\n", "\\t", "\\r", "\\u0000", "\\u0007", "\\u001b", "\\u007f");
    Arbitrary<String[]> zone = Arbitraries.oneOf(
        Arbitraries.integers().between(-5, 500).map(i -> Integer.toString(i)),
        Arbitraries.of("true", "false", "[\"a\"]", "{\"z\": \"a\"}"),
        Arbitraries.strings().withCharRange('a', 'z').ofMinLength(64).ofMaxLength(90).map(s -> "\"" + s + "\""),
        Combinators.combine(Arbitraries.strings().withCharRange('a', 'z').ofMaxLength(4), controlChar,
            Arbitraries.strings().withCharRange('a', 'z').ofMaxLength(4)).as((a, c, b) -> "\"" + a + c + b + "\""))
        .map(v -> new String[] {"zone", v, "bad_zone"});
    Arbitrary<String[]> weight = Arbitraries.oneOf(
        Arbitraries.integers().between(10_001, Integer.MAX_VALUE).map(i -> Integer.toString(i)),
        Arbitraries.integers().between(Integer.MIN_VALUE, 0).map(i -> Integer.toString(i)),
        Arbitraries.integers().between(1, 10_000).map(i -> "\"" + i + "\""),
        Arbitraries.integers().between(1, 10_000).map(i -> i + ".5"),
        Arbitraries.of("true", "null", "[3]", "{}", "1e2", "3.0", "\"\""))
        .map(v -> new String[] {"weight", v, "bad_weight"});
    Arbitrary<String[]> metadata = Arbitraries.oneOf(
        Arbitraries.of("1", "null", "true", "[\"k\"]", "\"k=v\"", "{\"k\": 1}", "{\"k\": null}", "{\"k\": {}}",
            "{\"k\": [\"v\"]}", "{\"k\": false}"),
        Arbitraries.integers().between(17, 40).map(n -> {
          StringBuilder m = new StringBuilder("{");
          for (int i = 0; i < n; i++) {
            m.append(i == 0 ? "" : ", ").append("\"k").append(i).append("\": \"v\"");
          }
          return m.append('}').toString();
        }),
        Arbitraries.integers().between(257, 600).map(n -> "{\"k\": \"" + "v".repeat(n) + "\"}"))
        .map(v -> new String[] {"metadata", v, "bad_metadata"});
    Arbitrary<String[]> unknown = Arbitraries.oneOf(
            Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(12),
            Arbitraries.of("Zone", "WEIGHT", "Metadata", "zone ", " weight"))
        .filter(k -> !List.of("zone", "weight", "metadata").contains(k))
        .map(k -> new String[] {k, "\"x\"", "unknown_field"});
    Arbitrary<String[]> mutation = Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, zone),
        net.jqwik.api.Tuple.of(3, weight), net.jqwik.api.Tuple.of(2, metadata), net.jqwik.api.Tuple.of(2, unknown));
    return Mutations.distinct(mutation, SEED, 40, m -> m[0] + "=" + m[1]).stream()
        .map(m -> json("PUT", REGISTRATION, REGISTRANT, mutated(m[0], m[1]), Set.of(400), m[2]))
        .toList();
  }

  private static String mutated(String field, String value) {
    return switch (field) {
      case "zone" -> VALID_REGISTRATION.replace("\"a\"", value);
      case "weight" -> VALID_REGISTRATION.replace("3", value);
      case "metadata" -> VALID_REGISTRATION.replace("{\"k\": \"v\"}", value);
      default -> VALID_REGISTRATION.replace("}}", "}, \"" + field + "\": " + value + "}");
    };
  }

  /** A registration (PUT and DELETE) whose {@code address:port} or cluster no endpoint can have. */
  static List<Request> registryPaths() {
    Arbitrary<String[]> address = Arbitraries.oneOf(
        Arbitraries.integers().between(256, 9999).map(o -> "10.0.0." + o),
        Arbitraries.integers().between(0, 99).map(o -> "10.0.0.0" + o),
        Combinators.combine(Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(6),
            Arbitraries.of("_", "..", "%20", "!", "%25", "%7E%7E")).as((a, c) -> a + c + "host"))
        .map(a -> new String[] {a + ":8080", "bad_address"});
    Arbitrary<String[]> port = Arbitraries.oneOf(
        Arbitraries.integers().between(65_536, 999_999).map(p -> Integer.toString(p)),
        Arbitraries.of("0", "", "http", "+80", "-1", "8080.0", "0x50", "%2B80", "8%2C080"))
        .map(p -> new String[] {"10.0.0.1:" + p, "bad_port"});
    Arbitrary<String[]> shape = Arbitraries.of(
        new String[] {"10.0.0.1", "bad_endpoint"}, new String[] {":8080", "bad_endpoint"},
        new String[] {"10.0.0.1:8080/", ""}, new String[] {"10.0.0.1:8080//", ""},
        new String[] {"fd00::1:8080", "bad_address"}, new String[] {"10.0.0.1:8080:1", ""});
    Arbitrary<String[]> cluster = Arbitraries.oneOf(
            Arbitraries.of("or%20ders", "orders!", "..", "%2E%2E", "orders%2F%2F", "%2Forders", "orders%07",
                "orders%1B%5B31m", "or%0Aders"),
            Arbitraries.integers().between(256, 400).map("c"::repeat))
        .map(c -> new String[] {"CLUSTER:" + c, "bad_cluster"});
    Arbitrary<String[]> bad = Arbitraries.oneOf(address, port, shape, cluster);
    List<Request> out = new ArrayList<>();
    for (String[] m : Mutations.distinct(bad, SEED + 1, 30, m -> m[0])) {
      String path = m[0].startsWith("CLUSTER:")
          ? "/api/v1/registry/" + m[0].substring("CLUSTER:".length()) + "/endpoints/10.0.0.2:8080"
          : "/api/v1/registry/orders/endpoints/" + m[0];
      out.add(out.size() % 3 == 2 ? json("DELETE", path, REGISTRANT, null, Set.of(400, 404), m[1])
          : json("PUT", path, REGISTRANT, VALID_REGISTRATION, Set.of(400, 404), m[1]));
    }
    return out;
  }

  /** Operator writes on greeter's first endpoint, rollback and freeze, with one bad value. */
  static List<Request> operatorBodies() {
    Arbitrary<Request> weight = Arbitraries.oneOf(
            Arbitraries.integers().between(10_001, Integer.MAX_VALUE).map(i -> Integer.toString(i)),
            Arbitraries.integers().between(-100_000, 0).map(i -> Integer.toString(i)),
            Arbitraries.integers().between(1, 10_000).map(i -> "\"" + i + "\""),
            Arbitraries.of("1.5", "true", "null", "[5]", "{}", "1e3", "5.0"))
        .map(v -> json("PUT", ENDPOINT + "/weight", OPERATOR, "{\"weight\": " + v + "}", Set.of(400), "bad_weight"));
    Arbitrary<Request> deadline = Arbitraries.oneOf(
            Arbitraries.integers().between(1, 10_000).map(i -> Integer.toString(i)),
            Arbitraries.integers().between(1, 99).map(i -> "\"" + i + "\""),
            Arbitraries.integers().between(1, 99).map(i -> "\"" + i + " m\""),
            Arbitraries.integers().between(1, 99).map(i -> "\"" + i + "M\""),
            Arbitraries.of("\"soon\"", "\"-5m\"", "\"PT5M\"", "true", "[]", "\" 5m\""))
        .map(v -> json("POST", ENDPOINT + "/drain", OPERATOR, "{\"deadline\": " + v + "}", Set.of(400),
            "bad_deadline"));
    Arbitrary<Request> rollback = Arbitraries.oneOf(
            Arbitraries.integers().between(-1000, 0).map(i -> Integer.toString(i)),
            Arbitraries.integers().between(1, 1000).map(i -> "\"" + i + "\""),
            Arbitraries.integers().between(1, 1000).map(i -> i + ".25"),
            Arbitraries.of("true", "[]", "{}", "\"latest\""))
        .map(v -> json("POST", "/api/v1/rollback", OPERATOR, "{\"to\": " + v + "}", Set.of(400), "bad_to"));
    Arbitrary<Request> reason = Combinators.combine(
            Arbitraries.of("/api/v1/freeze", "/api/v1/reload", "/api/v1/clusters/greeter/confirm"),
            Arbitraries.oneOf(Arbitraries.integers().map(i -> Integer.toString(i)),
                Arbitraries.of("true", "false", "[\"x\"]", "{\"text\": \"x\"}", "1.5")))
        .as((route, v) -> json("POST", route, OPERATOR, "{\"reason\": " + v + "}", Set.of(400), "bad_reason"));
    return Mutations.distinct(Arbitraries.oneOf(weight, deadline, rollback, reason), SEED + 2, 35, Request::name);
  }

  /** Hand-written: paths, methods, roles and headers. */
  static List<Request> requests() {
    String status = "/api/v1/status";
    Set<Integer> headOk = Set.of(200, 405);
    return List.of(
        json("GET", "/api/v1/nothing-here", OPERATOR, null, Set.of(404), "not_found"),
        json("GET", "/api/v2/status", OPERATOR, null, Set.of(404), "not_found"),
        json("GET", "/api/v1/clients?limit=0", OPERATOR, null, Set.of(400), ""),
        json("GET", "/api/v1/epochs/abc", OPERATOR, null, Set.of(400), ""),
        json("GET", "/api/v1/epochs/-1", OPERATOR, null, Set.of(400, 404), ""),
        json("GET", "/api/v1/epochs/99999999999999999999", OPERATOR, null, Set.of(400, 404), ""),
        json("GET", "/api/v1/epochs?limit=0", OPERATOR, null, Set.of(400), ""),
        json("GET", "/api/v1/epochs?limit=abc", OPERATOR, null, Set.of(400), ""),
        json("GET", "/api/v1/clients?limit=-1", OPERATOR, null, Set.of(400), ""),
        json("GET", "/api/v1/rejections?limit=1001", OPERATOR, null, Set.of(400), ""),
        json("GET", "/api/v1/clusters/gretter/endpoints", OPERATOR, null, Set.of(404), "unknown_cluster"),
        json("POST", "/api/v1/clusters/..%2F..%2Fetc/confirm", OPERATOR, "{}", Set.of(400), "bad_cluster"),
        json("POST", "/api/v1/clusters/greeter/endpoints/127.0.0.1:1/drain", OPERATOR, "{}", Set.of(404),
            "unknown_endpoint"),
        json("POST", "/api/v1/clusters/greeter/endpoints/127.0.0.1:{b1}%0A/drain", OPERATOR, "{}", Set.of(400),
            "bad_port"),
        json("POST", "/api/v1/clusters/greeter/confirm", OPERATOR, "{}", Set.of(404), "nothing_held"),
        json("POST", "/api/v1/rollback", OPERATOR, "{\"to\": 99999}", Set.of(404), "unknown_epoch"),
        json("PATCH", status, OPERATOR, "{}", Set.of(405), ""),
        json("DELETE", status, OPERATOR, null, Set.of(405), ""),
        json("PUT", "/api/v1/freeze", OPERATOR, "{}", Set.of(405), ""),
        json("GET", "/api/v1/freeze", OPERATOR, null, Set.of(405), ""),
        json("POST", "/api/v1/registry", REGISTRANT, "{}", Set.of(405), ""),
        json("BREW", status, OPERATOR, null, Set.of(400, 405, 501), ""),
        json("delete", REGISTRATION, REGISTRANT, null, Set.of(400, 404, 405, 501), ""),
        json("TRACE", status, OPERATOR, null, Set.of(400, 405), ""),
        json("CONNECT", "127.0.0.1:80", OPERATOR, null, Set.of(400, 405), ""),
        json("HEAD", status, OPERATOR, null, headOk, ""),
        json("HEAD", "/healthz", null, null, headOk, ""),
        json("HEAD", "/readyz", null, null, headOk, ""),
        json("HEAD", "/metrics", null, null, headOk, ""),
        json("HEAD", "/", null, null, headOk, ""),
        json("HEAD", "/api/v1/epochs", OPERATOR, null, headOk, ""),
        json("HEAD", "/api/v1/registry", OPERATOR, null, headOk, ""),
        json("HEAD", "/api/v1/freeze", OPERATOR, null, Set.of(404, 405), ""),
        json("HEAD", "/api/v1/status", null, null, Set.of(401, 405), ""),
        json("OPTIONS", status, OPERATOR, null, Set.of(200, 204, 405), ""),
        json("GET", status, null, null, Set.of(401), "unauthorized"),
        json("GET", status, "not-a-token", null, Set.of(401), "unauthorized"),
        json("GET", status, OPERATOR.substring(1), null, Set.of(401), "unauthorized"),
        json("POST", "/api/v1/freeze", VIEWER, "{}", Set.of(403), "forbidden"),
        json("POST", "/api/v1/freeze", REGISTRANT, "{}", Set.of(403), "forbidden"),
        json("POST", "/api/v1/rollback", null, "{}", Set.of(401), "unauthorized"),
        json("PUT", "/api/v1/registry/orders/endpoints/10.0.0.3:8080", VIEWER, VALID_REGISTRATION, Set.of(403),
            "forbidden"),
        json("GET", status, REGISTRANT, null, Set.of(403), "forbidden"),
        json("DELETE", REGISTRATION, VIEWER, null, Set.of(403), "forbidden"),
        json("DELETE", REGISTRATION, null, null, Set.of(401), "unauthorized"),
        raw("Basic instead of Bearer", "GET /api/v1/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + "Authorization: Basic b3BzOm9wcw==\r\n", "", Set.of(401)),
        raw("two Authorization headers", "GET /api/v1/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + "Authorization: Bearer " + VIEWER + "\r\nAuthorization: Bearer nope\r\n", "", Set.of(400, 401)),
        raw("a bearer token with a control character", "GET /api/v1/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + "Authorization: Bearer " + OPERATOR + "\u0001\r\n", "", Set.of(400, 401)),
        raw("a form body", "POST /api/v1/freeze HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer "
            + OPERATOR + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 8\r\n", "reason=x",
            Set.of(415)),
        raw("a gzip body", "POST /api/v1/freeze HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer "
            + OPERATOR + "\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 2\r\n", "{}",
            Set.of(415)),
        raw("a Latin-1 JSON body", "POST /api/v1/freeze HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + "Authorization: Bearer " + OPERATOR + "\r\nContent-Type: application/json; charset=iso-8859-1\r\n"
            + "Content-Length: 2\r\n", "{}", Set.of(415)),
        raw("a body on DELETE", "DELETE " + REGISTRATION + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + "Authorization: Bearer " + REGISTRANT + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n",
            "{}", Set.of(400)),
        json("POST", "/api/v1/freeze", OPERATOR, "{\"reason\": \"" + "r".repeat(70_000) + "\"}", Set.of(413),
            "payload_too_large"),
        json("PUT", REGISTRATION, REGISTRANT, "{\"zone\": \"a\"} {\"zone\": \"b\"}", Set.of(400), "bad_json"),
        json("PUT", REGISTRATION, REGISTRANT, "{\"zone\": \"a\", \"zone\": \"b\"}", Set.of(400), "bad_json"),
        json("PUT", REGISTRATION, REGISTRANT, "\ufeff{\"zone\": \"a\"}", Set.of(400), "bad_json"),
        json("PUT", REGISTRATION, REGISTRANT, "{\"zone\": \"a\"", Set.of(400), "bad_json"),
        json("PUT", REGISTRATION, REGISTRANT, "[" .repeat(5000) + "]".repeat(5000), Set.of(400), "bad_json"),
        json("PUT", REGISTRATION, REGISTRANT, "{\"weight\": 3, /* c */ \"zone\": \"a\"}", Set.of(400), "bad_json"));
  }

  /** Hand-written: HTTP framing. Each must be a 4xx (the parser's refusal), never a 500 or a success. */
  static List<Request> framing() {
    String put = "PUT " + REGISTRATION + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer "
        + REGISTRANT + "\r\nContent-Type: application/json\r\n";
    String body = "{\"zone\": \"b\"}";
    Set<Integer> refused = Set.of(400);
    return List.of(
        raw("Content-Length longer than the body", put + "Content-Length: 100\r\n", body, refused),
        raw("Content-Length shorter than the body", put + "Content-Length: 5\r\n", body, refused),
        raw("Content-Length not a number", put + "Content-Length: ten\r\n", body, refused),
        raw("Content-Length negative", put + "Content-Length: -13\r\n", body, refused),
        raw("two different Content-Lengths", put + "Content-Length: 13\r\nContent-Length: 12\r\n", body, refused),
        raw("Content-Length and chunked", put + "Content-Length: 13\r\nTransfer-Encoding: chunked\r\n",
            "d\r\n" + body + "\r\n0\r\n\r\n", refused),
        raw("a chunk size that is not hex", put + "Transfer-Encoding: chunked\r\n", "zz\r\n" + body + "\r\n0\r\n\r\n",
            refused),
        raw("a chunk longer than its size", put + "Transfer-Encoding: chunked\r\n", "2\r\n" + body + "\r\n0\r\n\r\n",
            refused),
        raw("chunks that never end", put + "Transfer-Encoding: chunked\r\n", "d\r\n" + body + "\r\n", refused),
        raw("an unknown transfer coding", put + "Transfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n",
            Set.of(400, 501)),
        raw("no Host in HTTP/1.1", "GET /healthz HTTP/1.1\r\nConnection: close\r\n", "", refused),
        raw("HTTP/3.0", "GET /healthz HTTP/3.0\r\nHost: x\r\nConnection: close\r\n", "", Set.of(400, 505)),
        raw("HTTP/0.9", "GET /healthz\r\n", "", Set.of(0, 400, 505)),
        raw("a request line of garbage", "\u0001\u0002\u0003 / HTTP/1.1\r\nHost: x\r\n", "", Set.of(0, 400)),
        raw("a header without a colon", "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nbroken\r\n", "",
            refused),
        raw("a folded header", "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-A: a\r\n b\r\n", "",
            refused),
        raw("a NUL in a header", "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-A: a\u0000b\r\n", "",
            refused),
        raw("a 64 KiB header", "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-A: "
            + "a".repeat(64 * 1024) + "\r\n", "", Set.of(400, 431)),
        raw("a 64 KiB path", "GET /api/v1/" + "a".repeat(64 * 1024) + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n",
            "", Set.of(400, 414, 431)),
        raw("a space in the path", "GET /api/v1/st atus HTTP/1.1\r\nHost: x\r\nConnection: close\r\n", "", refused),
        raw("Content-Length with a plus sign", put + "Content-Length: +13\r\n", body, refused),
        raw("a bad percent escape", "GET /api/v1/clusters/gr%zzeter/endpoints HTTP/1.1\r\nHost: x\r\nConnection: "
            + "close\r\nAuthorization: Bearer " + OPERATOR + "\r\n", "", refused));
  }

  @Order(1)
  @ParameterizedTest(name = "{0}")
  @MethodSource("registryBodies")
  void refusesABadRegistrationBody(Request request) {
    refuses(request);
  }

  @Order(2)
  @ParameterizedTest(name = "{0}")
  @MethodSource("registryPaths")
  void refusesABadRegistrationPath(Request request) {
    refuses(request);
  }

  @Order(3)
  @ParameterizedTest(name = "{0}")
  @MethodSource("operatorBodies")
  void refusesABadOperatorBody(Request request) {
    refuses(request);
  }

  @Order(4)
  @ParameterizedTest(name = "{0}")
  @MethodSource("requests")
  void refusesABadPathMethodRoleOrHeader(Request request) {
    refuses(request);
  }

  @Order(5)
  @ParameterizedTest(name = "{0}")
  @MethodSource("framing")
  void refusesBadFraming(Request request) {
    refuses(request);
  }

  private static void refuses(Request request) {
    SteadySignalbox.Round round = sb.round(request.name());
    RawHttp.Answer answer = send(request);
    assertThat(answer.status()).as("%s answered %s", request.name(), answer.text()).isIn(request.statuses());
    if (!request.code().isEmpty()) {
      assertThat(answer.code()).as("%s answered %s", request.name(), answer.text()).isEqualTo(request.code());
    }
    round.assertNothingChanged();
  }

  /**
   * 100 uploads stalled mid-body: health, status and a registry renewal still answer (each within
   * its own 2 s timeout), and then the stalled requests are refused or dropped, never applied.
   */
  @Order(6)
  @Test
  void stalledBodiesDoNotStarveTheApi() throws Exception {
    SteadySignalbox.Round round = sb.round("100 stalled bodies");
    String head = "PUT /api/v1/registry/orders/endpoints/10.0.0.9:8080 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
        + REGISTRANT + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n";
    List<Socket> stalled = new ArrayList<>();
    try {
      for (int i = 0; i < 100; i++) {
        stalled.add(RawHttp.stall(sb.server.adminPort(), head, "{\"zone\": ".getBytes(StandardCharsets.UTF_8)));
      }
      for (String path : List.of("/healthz", "/api/v1/status")) {
        RawHttp.Answer answer = RawHttp.exchange(sb.server.adminPort(), "GET " + path
            + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer " + VIEWER + "\r\n", new byte[0], 2000);
        assertThat(answer.status()).as("GET %s while 100 bodies stall: %s", path, answer.text()).isEqualTo(200);
      }
      RawHttp.Answer renewal = RawHttp.exchange(sb.server.adminPort(), json("PUT", REGISTRATION, REGISTRANT,
          VALID_REGISTRATION, Set.of(), "").head(), VALID_REGISTRATION.getBytes(StandardCharsets.UTF_8), 2000);
      assertThat(renewal.status()).as("a renewal while 100 bodies stall: %s", renewal.text()).isEqualTo(200);
    } finally {
      for (Socket s : stalled) {
        s.close();
      }
    }
    round.assertNothingChanged();
  }

  private static RawHttp.Answer send(Request request) {
    String head = request.head().replace("{b1}", Integer.toString(sb.port("b1")));
    return RawHttp.exchange(sb.server.adminPort(), head, request.body(), 10_000);
  }
}
