package io.signalbox.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RestartsTest {

  @Test
  void theDelayDoublesWithEachFailureInARowUpToTheMaximum() {
    Restarts restarts = new Restarts(Duration.ofSeconds(1), Duration.ofSeconds(30));

    assertThat(restarts.after(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(restarts.after(2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(restarts.after(5)).isEqualTo(Duration.ofSeconds(16));
    assertThat(restarts.after(6)).isEqualTo(Duration.ofSeconds(30));
    assertThat(restarts.after(1000)).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void vmErrorsOtherThanRunningOutOfMemoryOrStackAreNotRestarted() {
    assertThat(Restarts.restartable(new IllegalStateException("bug"))).isTrue();
    assertThat(Restarts.restartable(new AssertionError("bug"))).isTrue();
    assertThat(Restarts.restartable(new OutOfMemoryError("Java heap space"))).isTrue();
    assertThat(Restarts.restartable(new StackOverflowError())).isTrue();
    assertThat(Restarts.restartable(new InternalError("jvm"))).isFalse();
  }
}
