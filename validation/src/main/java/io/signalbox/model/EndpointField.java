package io.signalbox.model;

import java.util.List;
import java.util.function.Function;

/**
 * Every field of {@link EndpointSpec}, declared once, with what it is to the code that handles
 * endpoints field by field: the content hash, the merge of sources, the field-level diff and the
 * conflict message all walk this list. Five hand-written lists drifted before (issue 41: a
 * capacity-only change made no epoch, and the merge still called two capacities the same).
 * {@code EndpointFieldTest} fails by name when a record component has no entry here; the stored
 * form ({@code EndpointRecords}) and the translation are checked against it by their own tests.
 */
public enum EndpointField {
  ADDRESS("address", Use.IDENTITY, EndpointSpec::address),
  PORT("port", Use.IDENTITY, EndpointSpec::port),
  ZONE("zone", Use.ATTRIBUTE, EndpointSpec::zone),
  WEIGHT("weight", Use.ATTRIBUTE, EndpointSpec::weight),
  PRIORITY("priority", Use.ATTRIBUTE, EndpointSpec::priority),
  STATE("state", Use.ATTRIBUTE, EndpointSpec::state),
  ORIGIN("origin", Use.PROVENANCE, EndpointSpec::origin),
  CAPACITY_RPS("capacityRps", Use.OPTIONAL_ATTRIBUTE, EndpointSpec::capacityRps),
  HASH_KEY("hashKey", Use.OPTIONAL_ATTRIBUTE, EndpointSpec::hashKey),
  TARGET_REF("targetRef", Use.OPTIONAL_ATTRIBUTE, EndpointSpec::targetRef),
  HOSTNAME("hostname", Use.OPTIONAL_ATTRIBUTE, EndpointSpec::hostname),
  ADDITIONAL_ADDRESSES("additionalAddresses", Use.OPTIONAL_ATTRIBUTE, EndpointSpec::additionalAddresses),
  ZONE_HINTS("zoneHints", Use.OPTIONAL_ATTRIBUTE, EndpointSpec::zoneHints);

  /** What a field means to the code that compares endpoints. */
  public enum Use {
    /** Part of the endpoint's key ({@code address:port}): two values are two endpoints. */
    IDENTITY,
    /** What the endpoint is; sources that disagree on it conflict; shown in diffs. */
    ATTRIBUTE,
    /** An attribute most endpoints leave unset: messages name it only when set. */
    OPTIONAL_ATTRIBUTE,
    /** Where the endpoint came from: hashed (it is stored), never a conflict or a diff. */
    PROVENANCE
  }

  /** Every field, in the record's order. */
  public static final List<EndpointField> ALL = List.of(values());

  private final String component;
  private final Use use;
  private final Function<EndpointSpec, Object> accessor;

  EndpointField(String component, Use use, Function<EndpointSpec, Object> accessor) {
    this.component = component;
    this.use = use;
    this.accessor = accessor;
  }

  /** The record component's name, which is also the field's name in diffs and messages. */
  public String component() {
    return component;
  }

  public Use use() {
    return use;
  }

  /** Whether sources that disagree on this field report different endpoints. */
  public boolean isAttribute() {
    return use == Use.ATTRIBUTE || use == Use.OPTIONAL_ATTRIBUTE;
  }

  /** The value: a String, Integer (null when unset), {@link EndpointState} or List of String. */
  public Object value(EndpointSpec e) {
    return accessor.apply(e);
  }

  /** The value as a diff shows it; {@code (none)} when unset or empty. */
  public String text(EndpointSpec e) {
    Object v = value(e);
    if (v == null || "".equals(v) || (v instanceof List<?> l && l.isEmpty())) {
      return "(none)";
    }
    return v instanceof List<?> l ? String.join(",", l.stream().map(String::valueOf).toList()) : v.toString();
  }

  /** Whether every attribute of {@code a} and {@code b} is equal (their keys and origins may differ). */
  public static boolean sameAttributes(EndpointSpec a, EndpointSpec b) {
    for (EndpointField f : ALL) {
      if (f.isAttribute() && !java.util.Objects.equals(f.value(a), f.value(b))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The attributes as a conflict message names them: {@code zone a, weight 1, priority 0, READY},
   * then each optional attribute that is set ({@code , capacityRps 100}).
   */
  public static String describe(EndpointSpec e) {
    StringBuilder out = new StringBuilder();
    for (EndpointField f : ALL) {
      if (!f.isAttribute() || (f.use == Use.OPTIONAL_ATTRIBUTE && f.text(e).equals("(none)"))) {
        continue;
      }
      if (!out.isEmpty()) {
        out.append(", ");
      }
      if (f == STATE) {
        out.append(e.state());
      } else {
        out.append(f.component).append(' ').append(f == ZONE && e.zone().isEmpty() ? "-" : f.text(e));
      }
    }
    return out.toString();
  }
}
