package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressesTest {

  @ParameterizedTest
  @ValueSource(strings = {"0.0.0.0", "10.0.0.1", "255.255.255.255", "127.0.0.1"})
  void acceptsIpv4(String s) {
    assertThat(Addresses.isIpv4(s)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "1..2.3", "1.2.3.4.", "a.b.c.d", " 1.2.3.4"})
  void rejectsMalformedIpv4(String s) {
    assertThat(Addresses.isIpv4(s)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"::", "::1", "fd00::1", "2001:db8:0:0:0:0:2:1", "2001:DB8::8:800:200C:417A", "::ffff:10.0.0.1", "1::"})
  void acceptsIpv6(String s) {
    assertThat(Addresses.isIpv6(s)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {":", ":::", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::1", "[::1]", "::1%eth0", "::10.0.0.1:1"})
  void rejectsMalformedIpv6(String s) {
    assertThat(Addresses.isIpv6(s)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "greeter.default.svc.cluster.local", "a-b.example.", "x1.io"})
  void acceptsHostnames(String s) {
    assertThat(Addresses.isHostname(s)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "-a.io", "a-.io", "a..io", "under_score.io", "10.0.0.256", "with space"})
  void rejectsMalformedHostnames(String s) {
    assertThat(Addresses.isHostname(s)).isFalse();
  }

  @org.junit.jupiter.api.Test
  void rejectsOverlongHostnames() {
    assertThat(Addresses.isHostname("a".repeat(64) + ".io")).isFalse();
    assertThat(Addresses.isHostname(("a".repeat(63) + ".").repeat(4) + "io")).isFalse();
    assertThat(Addresses.isHostname(null)).isFalse();
  }
}
