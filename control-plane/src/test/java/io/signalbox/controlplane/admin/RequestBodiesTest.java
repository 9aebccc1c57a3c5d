package io.signalbox.controlplane.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.signalbox.model.EndpointState;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The one body reader binds no coerced value into the types the admin API's bodies use and will
 * use (issue 29: no coercion of quoted numbers or case-folded enum names, YAML and JSON alike):
 * every refusal names the field, what it must be and what was sent.
 */
class RequestBodiesTest {

  /** A body with one field of each kind a route may take. */
  record Kinds(EndpointState state, Boolean enabled, Long epoch, Integer weight, Double share, String zone) {}

  final RequestBodies bodies = new RequestBodies();

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "{\"state\": \"ready\"}|bad_state|state must be one of WARMING, READY, DEGRADED, DRAINING, EJECTED, was the string \"ready\"",
      "{\"state\": \"Ready\"}|bad_state|state must be one of WARMING, READY, DEGRADED, DRAINING, EJECTED, was the string \"Ready\"",
      "{\"state\": \" READY\"}|bad_state|state must be one of WARMING, READY, DEGRADED, DRAINING, EJECTED, was the string \" READY\"",
      "{\"state\": 0}|bad_state|state must be one of WARMING, READY, DEGRADED, DRAINING, EJECTED, was the number 0",
      "{\"state\": \"\"}|bad_state|state must be one of WARMING, READY, DEGRADED, DRAINING, EJECTED, was the string \"\"",
      "{\"enabled\": \"true\"}|bad_enabled|enabled must be true or false, was the string \"true\"",
      "{\"enabled\": 1}|bad_enabled|enabled must be true or false, was the number 1",
      "{\"enabled\": \"\"}|bad_enabled|enabled must be true or false, was the string \"\"",
      "{\"epoch\": \"3\"}|bad_epoch|epoch must be an integer, was the string \"3\"",
      "{\"epoch\": 3.0}|bad_epoch|epoch must be an integer, was the number 3.0",
      "{\"epoch\": 99999999999999999999}|bad_epoch|epoch must be an integer, was the number 99999999999999999999",
      "{\"weight\": \"0x5\"}|bad_weight|weight must be an integer, was the string \"0x5\"",
      "{\"weight\": false}|bad_weight|weight must be an integer, was the boolean false",
      "{\"share\": \"0.5\"}|bad_share|share must be a number, was the string \"0.5\"",
      "{\"share\": true}|bad_share|share must be a number, was the boolean true",
      "{\"zone\": 1.5}|bad_zone|zone must be a string, was the number 1.5",
      "{\"zone\": false}|bad_zone|zone must be a string, was the boolean false",
      "{\"Zone\": \"a\"}|unknown_field|unknown field 'Zone' in the request body; known fields: [state, enabled, epoch, weight, share, zone]"})
  void refusesEveryCoercion(String body, String code, String message) {
    ApiException refused = catchThrowableOfType(ApiException.class, () ->
        bodies.optional(body.getBytes(StandardCharsets.UTF_8), "application/json", null, Kinds.class));

    assertThat(refused).as(body).isNotNull();
    assertThat(refused.status().getCode()).isEqualTo(400);
    assertThat(refused.body().code()).isEqualTo(code);
    assertThat(refused.body().message()).isEqualTo(message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "{\"state\": \"READY\", \"enabled\": true, \"epoch\": 3, \"weight\": 5, \"share\": 0.5, \"zone\": \"a\"}",
      "{\"share\": 1}"})
  void bindsValuesOfTheirOwnType(String body) {
    assertThat(bodies.optional(body.getBytes(StandardCharsets.UTF_8), "application/json", null, Kinds.class))
        .isNotNull();
  }
}
