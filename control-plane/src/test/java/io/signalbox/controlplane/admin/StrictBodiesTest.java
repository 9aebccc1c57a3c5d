package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoredLease;
import io.signalbox.store.StoredOverride;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every write route of the admin API against malformed requests, over real HTTP to a whole
 * Signalbox on embedded PostgreSQL: each request gets its exact status, code and message, and
 * changes nothing (no epoch, no freeze, no lease, override or audit row).
 */
class StrictBodiesTest {

  static final String ENDPOINT = "/api/v1/clusters/greeter/endpoints/127.0.0.1:50001";
  static final String DRAIN = ENDPOINT + "/drain";
  static final String EJECT = ENDPOINT + "/eject";
  static final String WEIGHT = ENDPOINT + "/weight";
  static final String CONFIRM = "/api/v1/clusters/greeter/confirm";
  static final String ROLLBACK = "/api/v1/rollback";
  static final String FREEZE = "/api/v1/freeze";
  static final String UNFREEZE = "/api/v1/unfreeze";
  static final String PLAN = "/api/v1/plan";
  static final String RELOAD = "/api/v1/reload";
  static final String SHED = "/api/v1/clusters/greeter/shed";
  /** Not registered: a PUT that got through would create a lease (201). */
  static final String REGISTER = "/api/v1/registry/orders/endpoints/10.0.0.2:8080";
  /** Registered in setup: a DELETE that got through would remove it. */
  static final String REGISTERED = "/api/v1/registry/orders/endpoints/10.0.0.1:8080";

  static final String JSON = "application/json";
  static final String WEIGHT_RULE = "an integer from 1 to 10000";
  static final String NOT_VALID = "the request body is not valid: ";

  @TempDir static Path dir;
  static RegistryServer sb;

  @BeforeAll
  static void start() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }", "", "embedded");
    assertThat(sb.put(REGISTERED, "{\"zone\": \"a\", \"weight\": 3}").statusCode()).isEqualTo(201);
    await().atMost(Duration.ofSeconds(20)).until(() -> "READY".equals(sb.stateOf("orders", "10.0.0.1:8080")));
    // The rollout marks the newest epoch SAFE in the background (no clients hold it back); wait for
    // that, so the only changes left to see are the ones a request makes.
    await().atMost(Duration.ofSeconds(20)).until(() -> sb.server.store().epochs(1, Long.MAX_VALUE).get(0).status()
        == EpochStatus.SAFE);
  }

  @AfterAll
  static void stop() {
    sb.close();
  }

  /** One malformed request and the exact refusal it must get. */
  record Bad(String method, String path, String contentType, String contentEncoding, byte[] body, int status,
      String code, String message) {

    @Override
    public String toString() {
      String shown = new String(body, StandardCharsets.UTF_8).replaceAll("\\p{Cntrl}", "?");
      return method + " " + path + (JSON.equals(contentType) ? "" : " [" + contentType + "]")
          + (shown.length() > 60 ? " " + shown.substring(0, 60) + "..." : " " + shown) + " -> " + status + " " + code;
    }
  }

  static Bad bad(String method, String path, String body, String code, String message) {
    return new Bad(method, path, JSON, null, body.getBytes(StandardCharsets.UTF_8), 400, code, message);
  }

  static Bad typed(String method, String path, String contentType, String body, int status, String code,
      String message) {
    return new Bad(method, path, contentType, null, body.getBytes(StandardCharsets.UTF_8), status, code, message);
  }

  static Bad bytes(String method, String path, byte[] body, String code, String message) {
    return new Bad(method, path, JSON, null, body, 400, code, message);
  }

  static String known(String... fields) {
    return "; known fields: " + List.of(fields);
  }

  static Stream<Bad> badRequests() {
    List<Bad> all = new ArrayList<>();
    all.addAll(syntax());
    all.addAll(mediaTypes());
    all.addAll(fields());
    all.addAll(paths());
    return all.stream();
  }

  /** Not one JSON object: trailing content, duplicate keys, every leniency, other kinds of value. */
  static List<Bad> syntax() {
    String notObject = "the request body must be a JSON object, was ";
    return List.of(
        bad("POST", DRAIN, "{\"reason\": \"a\"} {\"reason\": \"b\"}", "bad_json",
            "the request body has content after its JSON value (line 1, column 17)"),
        bad("PUT", WEIGHT, "{\"weight\": 5} x", "bad_json", NOT_VALID + "Unrecognized token 'x': was expecting "
            + "(JSON String, Number, Array, Object or token 'null', 'true' or 'false') (line 1, column 15)"),
        bad("POST", ROLLBACK, "{\"to\": 1}]", "bad_json", NOT_VALID
            + "Unexpected close marker ']': no open Array to close (line 1, column 10)"),
        bad("PUT", REGISTER, "{\"zone\": \"a\"}\n{\"zone\": \"b\"}", "bad_json",
            "the request body has content after its JSON value (line 2, column 1)"),
        bad("POST", FREEZE, "{\"reason\": \"a\", \"reason\": \"b\"}", "bad_json",
            NOT_VALID + "Duplicate field 'reason' (line 1, column 25)"),
        bad("PUT", WEIGHT, "{\"weight\": 5, \"weight\": 6}", "bad_json",
            NOT_VALID + "Duplicate field 'weight' (line 1, column 23)"),
        bad("PUT", REGISTER, "{\"metadata\": {\"k\": \"a\", \"k\": \"b\"}}", "bad_json",
            NOT_VALID + "Duplicate field 'k' (line 1, column 28)"),
        bad("POST", RELOAD, "{\"reason\": \"x\" /* why */}", "bad_json", NOT_VALID + "Unexpected character "
            + "('/' (code 47)): maybe a (non-standard) comment? (not recognized as one since Feature 'ALLOW_COMMENTS'"
            + " not enabled for parser) (line 1, column 16)"),
        bad("POST", UNFREEZE, "# note\n{}", "bad_json", NOT_VALID + "Unexpected character ('#' (code 35)): "
            + "expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false') "
            + "(line 1, column 1)"),
        bad("POST", CONFIRM, "{'reason': 'x'}", "bad_json", NOT_VALID
            + "Unexpected character (''' (code 39)): was expecting double-quote to start field name (line 1, column 2)"),
        bad("POST", DRAIN, "{reason: \"x\"}", "bad_json", NOT_VALID + "Unexpected character ('r' (code 114)): "
            + "was expecting double-quote to start field name (line 1, column 2)"),
        bad("POST", ROLLBACK, "{\"to\": 01}", "bad_json",
            NOT_VALID + "Invalid numeric value: Leading zeroes not allowed (line 1, column 9)"),
        bad("POST", ROLLBACK, "{\"to\": NaN}", "bad_json", NOT_VALID
            + "Non-standard token 'NaN': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow (line 1, column 11)"),
        bad("PUT", WEIGHT, "{\"weight\": Infinity}", "bad_json", NOT_VALID + "Non-standard token 'Infinity': "
            + "enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow (line 1, column 20)"),
        bad("PUT", WEIGHT, "{\"weight\": +5}", "bad_json", NOT_VALID + "Unexpected character ('+' (code 43)) "
            + "in numeric value: JSON spec does not allow numbers to have plus signs: enable "
            + "`JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS` to allow (line 1, column 13)"),
        bad("POST", EJECT, "{\"reason\": \"x\",}", "bad_json", NOT_VALID
            + "Unexpected character ('}' (code 125)): was expecting double-quote to start field name (line 1, column 16)"),
        bad("PUT", REGISTER, "{\"zone\": \"a\u0001\"}", "bad_json", NOT_VALID + "Illegal unquoted character "
            + "((CTRL-CHAR, code 1)): has to be escaped using backslash to be included in string value (line 1, column 12)"),
        bad("POST", RELOAD, "{\"reason\": \"x\"", "bad_json", NOT_VALID
            + "Unexpected end-of-input: expected close marker for Object (start marker at [Source: REDACTED "
            + "(`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1]) (line 1, column 15)"),
        bad("POST", EJECT, "[]", "bad_json", notObject + "an array"),
        bad("PUT", REGISTER, "[{\"zone\": \"a\"}]", "bad_json", notObject + "an array"),
        bad("POST", FREEZE, "null", "bad_json", notObject + "null"),
        bad("POST", UNFREEZE, "\"freeze\"", "bad_json", notObject + "the string \"freeze\""),
        bad("POST", ROLLBACK, "42", "bad_json", notObject + "the number 42"),
        bad("POST", CONFIRM, "true", "bad_json", notObject + "the boolean true"),
        bad("PUT", WEIGHT, "  \n ", "bad_json", "the request body is only whitespace, not JSON"),
        bytes("POST", FREEZE, concat(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}, "{}"), "bad_json",
            NOT_VALID + "Unexpected character ('\ufeff' (code 65279 / 0xfeff)): expected a valid value (JSON String, "
                + "Number, Array, Object or token 'null', 'true' or 'false') (line 1, column 1)"));
  }

  /** Not UTF-8 JSON: other media types and charsets, no Content-Type, a compressed body, other bytes. */
  static List<Bad> mediaTypes() {
    String asJson = "a request body must be sent as Content-Type: application/json";
    return List.of(
        typed("POST", FREEZE, "text/plain", "{}", 415, "unsupported_media_type", asJson + ", was 'text/plain'"),
        typed("PUT", REGISTER, "application/x-www-form-urlencoded", "zone=a", 415, "unsupported_media_type",
            asJson + ", was 'application/x-www-form-urlencoded'"),
        typed("PUT", WEIGHT, null, "{\"weight\": 5}", 415, "unsupported_media_type",
            asJson + "; the request had no Content-Type"),
        typed("POST", DRAIN, "application/merge-patch+json", "{}", 415, "unsupported_media_type",
            asJson + ", was 'application/merge-patch+json'"),
        typed("POST", ROLLBACK, "text/json", "{\"to\": 1}", 415, "unsupported_media_type", asJson + ", was 'text/json'"),
        typed("POST", DRAIN, "application/json; charset=iso-8859-1", "{}", 415, "unsupported_media_type",
            "a request body must be UTF-8 JSON, was charset 'ISO-8859-1'"),
        typed("POST", ROLLBACK, "application/json;charset=\"UTF-16\"", "{}", 415, "unsupported_media_type",
            "a request body must be UTF-8 JSON, was charset 'UTF-16'"),
        new Bad("POST", RELOAD, JSON, "gzip", gzip("{\"reason\": \"x\"}"), 415, "unsupported_content_encoding",
            "request bodies are not compressed; Content-Encoding was 'gzip'"),
        bytes("PUT", REGISTER, concat("{\"zone\": \"".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xe9},
            "\"}"), "bad_encoding", "the request body is not UTF-8: byte 0xe9 at offset 10 does not start a UTF-8 "
            + "character"),
        bytes("POST", FREEZE, "{}".getBytes(StandardCharsets.UTF_16), "bad_encoding",
            "the request body is not UTF-8: byte 0xfe at offset 0 does not start a UTF-8 character"),
        bytes("POST", UNFREEZE, "{}".getBytes(StandardCharsets.UTF_16LE), "bad_json", NOT_VALID
            + "Illegal character ((CTRL-CHAR, code 0)): only regular white space (\\r, \\n, \\t) is allowed between "
            + "tokens (line 1, column 3)"),
        new Bad("PUT", WEIGHT, JSON, null, new byte[0], 400, "empty_body",
            "this request needs a JSON object body with 'weight'; it was empty"),
        new Bad("PUT", WEIGHT, null, null, new byte[0], 400, "empty_body",
            "this request needs a JSON object body with 'weight'; it was empty"),
        bytes("DELETE", REGISTERED, "{\"reason\": \"gone\"}".getBytes(StandardCharsets.UTF_8), "unexpected_body",
            "this request takes no body; it had 18 bytes"),
        bytes("DELETE", DRAIN, "{}".getBytes(StandardCharsets.UTF_8), "unexpected_body",
            "this request takes no body; it had 2 bytes"),
        typed("PUT", WEIGHT, JSON, "{\"reason\": \"" + "r".repeat(70_000) + "\"}", 413, "payload_too_large",
            "request bodies are limited to 65536 bytes"));
  }

  /** Objects with unknown keys, values of the wrong JSON type, nulls, missing or out-of-range values. */
  static List<Bad> fields() {
    String weight = "weight must be " + WEIGHT_RULE + ", was ";
    String to = "to must be an epoch number, was ";
    String reason = "reason must be a string, was ";
    return List.of(
        bad("POST", DRAIN, "{\"reason\": \"x\", \"deadlin\": \"1m\"}", "unknown_field",
            "unknown field 'deadlin' in the request body" + known("reason", "deadline")),
        bad("PUT", WEIGHT, "{\"weight\": 5, \"why\": \"x\"}", "unknown_field",
            "unknown field 'why' in the request body" + known("weight", "reason")),
        bad("POST", ROLLBACK, "{\"epoch\": 3}", "unknown_field",
            "unknown field 'epoch' in the request body" + known("to", "reason")),
        bad("POST", FREEZE, "{\"actor\": \"root\"}", "unknown_field",
            "unknown field 'actor' in the request body" + known("reason")),
        bad("POST", RELOAD, "{\"force\": true}", "unknown_field",
            "unknown field 'force' in the request body" + known("reason")),
        bad("POST", EJECT, "{\"for\": \"5m\"}", "unknown_field", "unknown field 'for' in the request body" + known("reason")),
        bad("POST", CONFIRM, "{\"all\": true}", "unknown_field", "unknown field 'all' in the request body" + known("reason")),
        bad("POST", "/api/v1/config/confirm", "{\"all\": true}", "unknown_field",
            "unknown field 'all' in the request body" + known("reason")),
        bad("POST", PLAN, "{\"endpoints\": {}}", "unknown_field",
            "unknown field 'endpoints' in the request body" + known("configFile", "config", "endpointFiles")),
        bad("POST", PLAN, "{\"endpointFiles\": {\"/e.yaml\": 7}}", "bad_endpointFiles",
            "endpointFiles./e.yaml must be a string, was the number 7"),
        bad("POST", PLAN, "{}", "bad_plan",
            "a plan needs a config (config and configFile) or endpoint files (endpointFiles)"),
        bad("POST", PLAN, "{\"config\": \"clusters: []\"}", "bad_configFile",
            "configFile must name the config's path (its endpoint files resolve against it)"),
        bad("POST", UNFREEZE, "{\"Reason\": \"x\"}", "unknown_field",
            "unknown field 'Reason' in the request body" + known("reason")),
        bad("PUT", REGISTER, "{\"weight\": 1, \"healthy\": true}", "unknown_field",
            "unknown field 'healthy' in the request body" + known("zone", "weight", "metadata", "capacity", "hostname",
                "hashKey", "additionalAddresses")),
        bad("PUT", WEIGHT, "{\"weight\": \"5\"}", "bad_weight", weight + "the string \"5\""),
        bad("PUT", WEIGHT, "{\"weight\": 5.5}", "bad_weight", weight + "the number 5.5"),
        bad("PUT", WEIGHT, "{\"weight\": 5.0}", "bad_weight", weight + "the number 5.0"),
        bad("PUT", WEIGHT, "{\"weight\": 1e2}", "bad_weight", weight + "the number 1E+2"),
        bad("PUT", WEIGHT, "{\"weight\": true}", "bad_weight", weight + "the boolean true"),
        bad("PUT", WEIGHT, "{\"weight\": null}", "bad_weight", weight + "null"),
        bad("PUT", WEIGHT, "{\"weight\": \"\"}", "bad_weight", weight + "the string \"\""),
        bad("PUT", WEIGHT, "{\"weight\": [5]}", "bad_weight", weight + "an array"),
        bad("PUT", WEIGHT, "{\"weight\": {\"value\": 5}}", "bad_weight", weight + "an object"),
        bad("PUT", WEIGHT, "{\"weight\": 99999999999}", "bad_weight", weight + "the number 99999999999"),
        bad("PUT", WEIGHT, "{}", "bad_weight", "weight is required: " + WEIGHT_RULE),
        bad("PUT", WEIGHT, "{\"reason\": \"x\"}", "bad_weight", "weight is required: " + WEIGHT_RULE),
        bad("PUT", WEIGHT, "{\"weight\": 0}", "bad_weight", weight + "0"),
        bad("PUT", WEIGHT, "{\"weight\": 10001}", "bad_weight", weight + "10001"),
        bad("PUT", WEIGHT, "{\"weight\": -1}", "bad_weight", weight + "-1"),
        bad("PUT", WEIGHT, "{\"weight\": 5, \"reason\": 7}", "bad_reason", reason + "the number 7"),
        bad("POST", DRAIN, "{\"deadline\": 60}", "bad_deadline",
            "deadline must be a duration like 30s, 5m or 1h, was the number 60"),
        bad("POST", DRAIN, "{\"deadline\": \"soon\"}", "bad_deadline",
            "deadline must be a duration like 30s, 5m or 1h, was 'soon'"),
        bad("POST", DRAIN, "{\"deadline\": \" 5m \"}", "bad_deadline",
            "deadline must be a duration like 30s, 5m or 1h, was ' 5m '"),
        bad("POST", ROLLBACK, "{\"to\": 0}", "bad_to", to + "0"),
        bad("POST", ROLLBACK, "{\"to\": -3}", "bad_to", to + "-3"),
        bad("POST", DRAIN, "{\"reason\": false}", "bad_reason", reason + "the boolean false"),
        bad("POST", DRAIN, "{\"reason\": [\"a\"]}", "bad_reason", reason + "an array"),
        bad("POST", EJECT, "{\"reason\": true}", "bad_reason", reason + "the boolean true"),
        bad("POST", CONFIRM, "{\"reason\": [\"x\"]}", "bad_reason", reason + "an array"),
        bad("POST", ROLLBACK, "{\"to\": \"3\"}", "bad_to", to + "the string \"3\""),
        bad("POST", ROLLBACK, "{\"to\": 1.5}", "bad_to", to + "the number 1.5"),
        bad("POST", ROLLBACK, "{\"to\": 99999999999999999999}", "bad_to", to + "the number 99999999999999999999"),
        bad("POST", ROLLBACK, "{\"to\": true}", "bad_to", to + "the boolean true"),
        bad("POST", ROLLBACK, "{\"to\": 1, \"reason\": {\"text\": \"x\"}}", "bad_reason", reason + "an object"),
        bad("POST", FREEZE, "{\"reason\": 42}", "bad_reason", reason + "the number 42"),
        bad("POST", UNFREEZE, "{\"reason\": 1.5}", "bad_reason", reason + "the number 1.5"),
        bad("POST", RELOAD, "{\"reason\": {}}", "bad_reason", reason + "an object"),
        bad("PUT", REGISTER, "{\"weight\": \"5\"}", "bad_weight", weight + "the string \"5\""),
        bad("PUT", REGISTER, "{\"weight\": true}", "bad_weight", weight + "the boolean true"),
        bad("PUT", REGISTER, "{\"weight\": 1.0}", "bad_weight", weight + "the number 1.0"),
        bad("PUT", REGISTER, "{\"weight\": 4294967297}", "bad_weight", weight + "the number 4294967297"),
        bad("PUT", REGISTER, "{\"weight\": 0}", "bad_weight", weight + "0"),
        bad("PUT", REGISTER, "{\"zone\": 7}", "bad_zone", "zone must be a string, was the number 7"),
        bad("PUT", REGISTER, "{\"zone\": [\"a\"]}", "bad_zone", "zone must be a string, was an array"),
        bad("PUT", REGISTER, "{\"metadata\": {\"k\": 1}}", "bad_metadata", "metadata.k must be a string, was the number 1"),
        bad("PUT", REGISTER, "{\"metadata\": {\"k\": null}}", "bad_metadata", "metadata.k must be a string, was null"),
        bad("PUT", REGISTER, "{\"metadata\": {\"k\": true}}", "bad_metadata",
            "metadata.k must be a string, was the boolean true"),
        bad("PUT", REGISTER, "{\"metadata\": {\"k\": {\"nested\": \"x\"}}}", "bad_metadata",
            "metadata.k must be a string, was an object"),
        bad("PUT", REGISTER, "{\"metadata\": [\"a\"]}", "bad_metadata",
            "metadata must be an object of string values, was an array"),
        bad("PUT", REGISTER, "{\"metadata\": \"v=1\"}", "bad_metadata",
            "metadata must be an object of string values, was the string \"v=1\""));
  }

  /** Names in paths no cluster or endpoint can have, and query parameters no write route takes. */
  static List<Bad> paths() {
    String address = "address must be an IPv4 address, an IPv6 address in brackets or a DNS name, was ";
    String emptySegment = "must not have an empty segment (a leading, trailing or doubled '/'), was ";
    return List.of(
        bad("POST", "/api/v1/clusters/gr%20eeter/endpoints/127.0.0.1:50001/drain", "", "bad_cluster",
            "cluster may contain only letters, digits and . _ - / :, was 'gr eeter'"),
        bad("POST", "/api/v1/clusters/ns%2F..%2Fgreeter/endpoints/127.0.0.1:50001/drain", "", "bad_cluster",
            "cluster must not have a '.' or '..' segment, was 'ns/../greeter'"),
        bad("POST", "/api/v1/clusters/%2Fgreeter/endpoints/127.0.0.1:50001/eject", "", "bad_cluster",
            "cluster " + emptySegment + "'/greeter'"),
        bad("PUT", "/api/v1/clusters/greeter%07/endpoints/127.0.0.1:50001/weight", "{\"weight\": 5}", "bad_cluster",
            "cluster must not contain control characters, was 'greeter\\u0007'"),
        bad("POST", "/api/v1/clusters/%2E%2E/confirm", "", "bad_cluster",
            "cluster must not have a '.' or '..' segment, was '..'"),
        bad("POST", "/api/v1/clusters/.%2E/confirm", "", "bad_cluster",
            "cluster must not have a '.' or '..' segment, was '..'"),
        bad("POST", "/api/v1/clusters/greeter%2F%2F/confirm", "", "bad_cluster", "cluster " + emptySegment + "'greeter//'"),
        bad("POST", "/api/v1/clusters/greeter/endpoints/127.0.0.1:+50001/eject", "", "bad_port",
            "port must be a number from 1 to 65535, was '+50001'"),
        bad("POST", "/api/v1/clusters/greeter/endpoints/%5B127.0.0.1%5D:50001/drain", "", "bad_address",
            address + "'[127.0.0.1]'"),
        bad("PUT", "/api/v1/clusters/greeter/endpoints/127.0.0..1:50001/weight", "{\"weight\": 5}", "bad_address",
            address + "'127.0.0..1'"),
        bad("DELETE", "/api/v1/clusters/greeter/endpoints/host%0A.local:50001/drain", "", "bad_address",
            address + "'host\\u000a.local'"),
        bad("PUT", "/api/v1/registry/shop%2F%2Forders/endpoints/10.0.0.2:8080", "", "bad_cluster",
            "cluster " + emptySegment + "'shop//orders'"),
        // Jetty refuses %00 in a path itself; its answer has the API's shape too.
        bad("PUT", "/api/v1/registry/orders%00/endpoints/10.0.0.2:8080", "", "bad_request",
            "the request cannot be parsed: Bad Request"),
        bad("PUT", "/api/v1/registry/orders%1B%5B31m/endpoints/10.0.0.2:8080", "", "bad_cluster",
            "cluster must not contain control characters, was 'orders\\u001b[31m'"),
        bad("DELETE", "/api/v1/registry/..%2Forders/endpoints/10.0.0.1:8080", "", "bad_cluster",
            "cluster must not have a '.' or '..' segment, was '../orders'"),
        bad("PUT", "/api/v1/registry/orders/endpoints/10.0.0..2:8080", "", "bad_address", address + "'10.0.0..2'"),
        bad("POST", ROLLBACK + "?to=1", "", "unknown_parameter",
            "POST /api/v1/rollback takes no query parameters, was given [to]"),
        bad("POST", FREEZE + "?reason=x&force", "", "unknown_parameter",
            "POST /api/v1/freeze takes no query parameters, was given [force, reason]"),
        bad("PUT", REGISTER + "?ttl=60", "", "unknown_parameter",
            "PUT /api/v1/registry/{cluster}/endpoints/{endpoint} takes no query parameters, was given [ttl]"),
        bad("DELETE", REGISTERED + "?force=true", "", "unknown_parameter",
            "DELETE /api/v1/registry/{cluster}/endpoints/{endpoint} takes no query parameters, was given [force]"),
        bad("POST", SHED, "{\"percnt\": 50}", "unknown_field",
            "unknown field 'percnt' in the request body" + known("percent", "category", "force", "reason")),
        bad("POST", "/api/v1/freeze-ejections", "{\"actor\": \"root\"}", "unknown_field",
            "unknown field 'actor' in the request body" + known("reason")),
        bad("POST", "/api/v1/unfreeze-ejections?all", "", "unknown_parameter",
            "POST /api/v1/unfreeze-ejections takes no query parameters, was given [all]"),
        bad("DELETE", SHED + "?category=x", "", "unknown_parameter",
            "DELETE /api/v1/clusters/{cluster}/shed takes no query parameters, was given [category]"),
        bad("DELETE", SHED + "/signalbox_operator?force", "", "unknown_parameter",
            "DELETE /api/v1/clusters/{cluster}/shed/{category} takes no query parameters, was given [force]"));
  }

  /** What a refused request must leave exactly as it was. */
  record State(long epoch, boolean frozen, List<String> epochs, List<StoredLease> leases,
      List<StoredOverride> overrides, Map<String, Integer> overridesEver, List<AuditEntry> audit, String registry,
      String endpoints) {

    static State now() {
      SnapshotStore store = sb.server.store();
      var status = sb.server.reconciler().status();
      Map<String, Integer> ever = Map.of(
          "drain", store.overrides().count("greeter", "127.0.0.1", 50001, "drain"),
          "eject", store.overrides().count("greeter", "127.0.0.1", 50001, "eject"),
          "weight", store.overrides().count("greeter", "127.0.0.1", 50001, "weight"));
      List<String> epochs = store.epochs(1000, Long.MAX_VALUE).stream()
          .map(e -> e.epoch() + " " + e.contentHash() + " " + e.cause()).toList();
      return new State(status.epoch(), status.frozen(), epochs, store.leases().all(),
          store.overrides().active(), ever, store.auditLog(1000), sb.get("/api/v1/registry").body(),
          sb.endpoints("greeter").toString());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRequests")
  void isRefusedExactlyAndChangesNothing(Bad request) {
    State before = State.now();

    HttpResponse<String> response = send(request);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(request.status());
    JsonNode error = json(response);
    assertThat(error.get("code").asText()).as(response.body()).isEqualTo(request.code());
    assertThat(error.get("message").asText()).isEqualTo(request.message());
    assertThat(error.size()).isEqualTo(2);
    assertThat(State.now()).isEqualTo(before);
  }

  @Test
  void coversEveryWriteRouteWithMoreThanSixtyRequests() {
    List<Bad> all = badRequests().toList();
    assertThat(all).hasSizeGreaterThanOrEqualTo(60);
    List<String> routes = sb.server.admin().routes().stream()
        .filter(r -> !r.method().equals("GET"))
        .map(r -> r.method() + " " + r.path())
        .toList();
    for (String route : routes) {
      String[] parts = route.split(" ");
      String pattern = parts[1].replaceAll("\\{[^}]+}", "[^/?]+") + "(\\?.*)?";
      assertThat(all).as(route).anyMatch(b -> b.method().equals(parts[0]) && b.path().matches(pattern));
    }
  }

  @Test
  void everyCodeTheseRequestsGetIsInTheErrorsTable() throws IOException {
    String errors = Files.readString(Path.of("..", "docs", "api.md")).split("## Routes")[0];
    assertThat(badRequests().map(Bad::code).distinct())
        .allSatisfy(code -> assertThat(errors).as("docs/api.md, Errors").contains("`" + code + "`"));
  }

  @Test
  void validBodiesWithEveryOptionalFormStillWork() {
    // An absent Content-Type is fine while there is no body (curl -X POST); so is a charset of UTF-8.
    HttpResponse<String> noType = send(new Bad("POST", UNFREEZE, null, null, new byte[0], 0, "", ""));
    assertThat(noType.statusCode()).as(noType.body()).isEqualTo(200);
    HttpResponse<String> formEmpty = send(new Bad("POST", UNFREEZE, "application/x-www-form-urlencoded", null,
        new byte[0], 0, "", ""));
    assertThat(formEmpty.statusCode()).as(formEmpty.body()).isEqualTo(200);
    HttpResponse<String> utf8 = send(new Bad("POST", UNFREEZE, "Application/JSON; charset=\"UTF-8\"", "identity",
        "{\"reason\": null}".getBytes(StandardCharsets.UTF_8), 0, "", ""));
    assertThat(utf8.statusCode()).as(utf8.body()).isEqualTo(200);
    HttpResponse<String> renewal = sb.put(REGISTERED, " {\"zone\": \"a\", \"weight\": 3, \"metadata\": null}\n");
    assertThat(renewal.statusCode()).as(renewal.body()).isEqualTo(200);
  }

  static HttpResponse<String> send(Bad request) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(sb.uri(request.path()))
        .method(request.method(), request.body().length == 0 ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(request.body()));
    if (request.contentType() != null) {
      builder.header("Content-Type", request.contentType());
    }
    if (request.contentEncoding() != null) {
      builder.header("Content-Encoding", request.contentEncoding());
    }
    return sb.send(builder, null);
  }

  static byte[] concat(byte[] head, String tail) {
    return concat(head, new byte[0], tail);
  }

  static byte[] concat(byte[] head, byte[] middle, String tail) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(head);
    out.writeBytes(middle);
    out.writeBytes(tail.getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  static byte[] gzip(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      zip.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
