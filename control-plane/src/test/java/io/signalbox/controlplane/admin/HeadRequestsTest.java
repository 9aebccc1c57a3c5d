package io.signalbox.controlplane.admin;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * {@code HEAD} over real HTTP, as a load balancer's health check sends it: wherever {@code GET}
 * answers, {@code HEAD} answers the same status and headers without a body; elsewhere it gets the
 * API's 404 or 405. Never a 500, and nothing logged at ERROR.
 */
class HeadRequestsTest {

  @TempDir static Path dir;
  static RunningSignalbox sb;
  final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

  @BeforeAll
  static void start() {
    sb = RunningSignalbox.start(dir, "port: 0");
  }

  @AfterAll
  static void stop() {
    sb.close();
  }

  @BeforeEach
  void record() {
    logged.start();
    root.addAppender(logged);
  }

  @AfterEach
  void noErrorLogged() {
    root.detachAppender(logged);
    assertThat(logged.list).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.ERROR))
        .extracting(ILoggingEvent::getFormattedMessage).isEmpty();
  }

  static HttpResponse<String> head(String path) {
    return sb.send(HttpRequest.newBuilder(sb.uri(path)).method("HEAD", HttpRequest.BodyPublishers.noBody()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/healthz", "/readyz", "/metrics", "/api/v1/status", "/", "/dashboard/app.js",
      "/api/v1/clusters", "/api/v1/registry"})
  void answersAsGetDoesWithoutABody(String path) {
    HttpResponse<String> get = sb.get(path);

    HttpResponse<String> head = head(path);

    assertThat(head.statusCode()).as(path).isEqualTo(get.statusCode());
    assertThat(head.body()).isEmpty();
    assertThat(head.headers().firstValue("Content-Type")).isEqualTo(get.headers().firstValue("Content-Type"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/no/such/route", "/api/v1/nothing", "/dashboard/nothing.js"})
  void anUnknownRouteIs404(String path) {
    assertThat(head(path).statusCode()).isEqualTo(404);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/api/v1/freeze", "/api/v1/reload", "/api/v1/rollback"})
  void aRouteWithoutGetIs405(String path) {
    assertThat(head(path).statusCode()).isEqualTo(405);
  }

  @Test
  void everyGetRouteWithoutParametersAnswersHeadWithItsStatus() {
    List<String> paths = sb.server.admin().routes().stream()
        .filter(r -> r.method().equals("GET") && !r.path().contains("{"))
        .map(AdminServer.Route::path)
        .toList();
    assertThat(paths).hasSizeGreaterThan(10);
    for (String path : paths) {
      HttpResponse<String> head = head(path);
      assertThat(head.statusCode()).as("HEAD " + path).isEqualTo(sb.get(path).statusCode()).isLessThan(500);
      assertThat(head.body()).as("HEAD " + path).isEmpty();
    }
  }
}
