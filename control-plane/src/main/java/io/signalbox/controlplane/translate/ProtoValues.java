package io.signalbox.controlplane.translate;

import com.google.protobuf.Duration;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.UInt64Value;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.SelfConfigSource;

/** Conversions from model values to the protobuf well-known types Envoy's API uses. */
final class ProtoValues {

  /**
   * "Fetch it over the same ADS stream, v3": what every EDS cluster and every RDS reference points
   * at. Both Envoy and grpc-xds require {@code ads {}} here when they talk ADS, and grpc-xds rejects
   * a config source without it ("ConfigSource is not ADS").
   */
  static final ConfigSource ADS =
      ConfigSource.newBuilder()
          .setAds(AggregatedConfigSource.getDefaultInstance())
          .setResourceApiVersion(ApiVersion.V3)
          .build();

  /**
   * "Send load reports to the server this config came from": {@code lrs_server: {self: {}}}. It is
   * the only LRS source grpc-java accepts (any other makes it reject the cluster), and it opens the
   * LRS stream on the ADS channel, so it reaches Signalbox under the same TLS and identity rules.
   */
  static final ConfigSource SELF =
      ConfigSource.newBuilder().setSelf(SelfConfigSource.getDefaultInstance()).build();

  private ProtoValues() {}

  static Duration duration(java.time.Duration d) {
    return Duration.newBuilder().setSeconds(d.getSeconds()).setNanos(d.getNano()).build();
  }

  static UInt32Value uint32(int value) {
    return UInt32Value.of(value);
  }

  static UInt64Value uint64(long value) {
    return UInt64Value.of(value);
  }
}
