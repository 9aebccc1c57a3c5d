package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The one rule for {@code store.url}. Before it there were two "is it external" tests: the server
 * took any {@code jdbc:} URL for an external PostgreSQL (and started as a replica), the config
 * check wanted {@code jdbc:postgresql://} and the store opener {@code jdbc:postgresql:}; so
 * {@code jdbc:mysql://...} and {@code jdbc:postgresql:signalbox} were each accepted by one and
 * refused by another.
 */
class StoreSettingsTest {

  private static StoreSettings at(String url) {
    return new StoreSettings(url, Path.of("data"), null, null);
  }

  @Test
  void anyPostgresqlJdbcUrlIsAnExternalServer() {
    for (String url : new String[] {"jdbc:postgresql://db:5432/signalbox", "jdbc:postgresql:signalbox"}) {
      assertThat(StoreSettings.urlProblem(url)).as(url).isEmpty();
      assertThat(at(url).external()).as(url).isTrue();
    }
  }

  @Test
  void anotherDriversJdbcUrlIsRefusedNotTakenForAnExternalServer() {
    assertThat(StoreSettings.urlProblem("jdbc:mysql://db/signalbox")).contains(
        "must be 'embedded', 'memory' or a jdbc:postgresql:// URL, was 'jdbc:mysql://db/signalbox'");
    assertThat(at("jdbc:mysql://db/signalbox").external()).isFalse();
  }

  @Test
  void embeddedAndMemoryAreThisProcesssOwn() {
    assertThat(StoreSettings.urlProblem("embedded")).isEmpty();
    assertThat(StoreSettings.urlProblem("memory")).isEmpty();
    assertThat(at("embedded").external()).isFalse();
    assertThat(at("memory").external()).isFalse();
    assertThat(StoreSettings.defaults().embedded()).isTrue();
  }

  @Test
  void keepsAPasswordInTheUrlOutOfTheRefusalAndOutOfLogs() {
    assertThat(StoreSettings.urlProblem("mysql://app:hunter2@db/signalbox")).isEqualTo(Optional.of(
        "must be 'embedded', 'memory' or a jdbc:postgresql:// URL, was 'mysql://***@db/signalbox'"));
    assertThat(new StoreSettings("jdbc:postgresql://app:hunter2@db/x", Path.of("data"), "app", "hunter2").toString())
        .doesNotContain("hunter2");
  }

  @Test
  void takesTheConnectionTheCommandLineGivesAndKeepsTheRest() {
    StoreSettings configured = new StoreSettings("embedded", Path.of("/var/lib/signalbox"), null, null, 7);

    assertThat(configured.withConnection("jdbc:postgresql://db/signalbox", "signalbox", null))
        .isEqualTo(new StoreSettings("jdbc:postgresql://db/signalbox", Path.of("/var/lib/signalbox"), "signalbox", null,
            7));
    assertThat(configured.withConnection(null, null, null)).isEqualTo(configured);
  }
}
