package io.signalbox.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClusterSpecTest {

  private static final ClusterSpec DEFAULTS = ClusterSpec.named(null)
      .with(new ClusterSpec.Balancing(LbPolicy.LEAST_REQUEST, Duration.ofSeconds(10), 0, null, null, null, null))
      .with(new ClusterSpec.Guards(2, 30, Duration.ofMinutes(1)))
      .with(new ClusterSpec.Ejection(20, null));

  @Test
  void takesEachUnsetSettingFromTheDefaultsNotEachUnsetGroup() {
    ClusterSpec declared = ClusterSpec.named("api")
        .with(new ClusterSpec.Balancing(LbPolicy.RING_HASH, null, null, new RingHashSpec(1024L, null), null, null, null))
        .with(new ClusterSpec.Guards(null, null, Duration.ZERO));

    ClusterSpec effective = declared.withDefaults(DEFAULTS);

    assertThat(effective.balancing())
        .isEqualTo(new ClusterSpec.Balancing(LbPolicy.RING_HASH, Duration.ofSeconds(10), 0,
            new RingHashSpec(1024L, null), null, null, null));
    assertThat(effective.guards()).isEqualTo(new ClusterSpec.Guards(2, 30, Duration.ZERO));
    assertThat(effective.ejection()).isEqualTo(new ClusterSpec.Ejection(20, null));
    assertThat(effective.name()).isEqualTo("api");
  }

  @Test
  void givesSignalboxsDefaultsForWhatNeitherTheClusterNorTheDefaultsSet() {
    ClusterSpec bare = ClusterSpec.named("api");

    assertThat(bare.effectiveLbPolicy()).isEqualTo(LbPolicy.ROUND_ROBIN);
    assertThat(bare.effectiveConnectTimeout()).isEqualTo(Duration.ofSeconds(1));
    assertThat(bare.effectiveMaxEjectionPercent()).isEqualTo(10);
    assertThat(bare.effectiveDrainTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(bare.effectiveMinEligible()).isEqualTo(1);
    assertThat(bare.effectiveMassRemovalPercent()).isEqualTo(50);
    assertThat(bare.withDefaults(DEFAULTS).effectiveMaxEjectionPercent()).isEqualTo(20);
  }

  @Test
  void neverHoldsANullGroup() {
    ClusterSpec bare = new ClusterSpec("api", null, null, null, null, null, null);

    assertThat(bare).isEqualTo(ClusterSpec.named("api"));
    assertThat(bare.locality()).isEqualTo(new ClusterSpec.Locality(null, null, null));
  }

  @Test
  void admissionIsOffWithSignalboxsDefaultsUntilDeclaredAndTakesItsGroupFromTheDefaults() {
    ClusterSpec bare = ClusterSpec.named("api");

    assertThat(bare.admission().enabled()).isFalse();
    assertThat(bare.admission().defaultCapacityRps()).isEmpty();
    assertThat(bare.admission().effectiveMaxUtilization()).isEqualTo(0.8);
    assertThat(bare.admission().effectiveStep()).isEqualTo(10);
    assertThat(bare.admission().effectiveWindow()).isEqualTo(Duration.ofSeconds(30));

    ClusterSpec defaults = ClusterSpec.named(null)
        .with(new ClusterSpec.Admission(new CapacitySpec(100), new AdmissionSpec(1.0, null, Duration.ofMinutes(1))));
    ClusterSpec declared = bare.with(new ClusterSpec.Admission(new CapacitySpec(250), null)).withDefaults(defaults);

    assertThat(declared.admission().defaultCapacityRps()).hasValue(250);
    assertThat(declared.admission().enabled()).isTrue();
    assertThat(declared.admission().effectiveMaxUtilization()).isEqualTo(1.0);
    assertThat(declared.admission().effectiveStep()).isEqualTo(10);
    assertThat(declared.admission().effectiveWindow()).isEqualTo(Duration.ofMinutes(1));
  }
}
