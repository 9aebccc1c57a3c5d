package io.signalbox.validation;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Duration;
import com.google.protobuf.Message;
import io.envoyproxy.pgv.validate.Validate.DurationRules;
import java.math.BigDecimal;
import java.util.List;

/** protoc-gen-validate's {@code duration} rules, compared as exact seconds. */
final class PgvDurationRules {

  private PgvDurationRules() {}

  /** A comparable duration that prints as protobuf's JSON form does ({@code 1.5s}). */
  private record Seconds(BigDecimal value) implements Comparable<Seconds> {
    static Seconds of(long seconds, int nanos) {
      return new Seconds(BigDecimal.valueOf(seconds).add(BigDecimal.valueOf(nanos, 9)).stripTrailingZeros());
    }

    static Seconds of(Duration d) {
      return of(d.getSeconds(), d.getNanos());
    }

    @Override
    public int compareTo(Seconds o) {
      return value.compareTo(o.value);
    }

    @Override
    public String toString() {
      return value.toPlainString() + "s";
    }
  }

  static void check(String path, Message duration, DurationRules r, PgvScalarRules.Sink sink) {
    Descriptor type = duration.getDescriptorForType();
    long seconds = (Long) duration.getField(type.findFieldByName("seconds"));
    int nanos = (Integer) duration.getField(type.findFieldByName("nanos"));
    Seconds v = Seconds.of(seconds, nanos);
    List<Seconds> in = r.getInList().stream().map(Seconds::of).toList();
    List<Seconds> notIn = r.getNotInList().stream().map(Seconds::of).toList();
    PgvScalarRules.bounded(
        path,
        v,
        r.hasConst() ? Seconds.of(r.getConst()) : null,
        r.hasLt() ? Seconds.of(r.getLt()) : null,
        r.hasLte() ? Seconds.of(r.getLte()) : null,
        r.hasGt() ? Seconds.of(r.getGt()) : null,
        r.hasGte() ? Seconds.of(r.getGte()) : null,
        in,
        notIn,
        sink);
  }
}
