package io.signalbox.controlplane.timeline;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Map;

/** What kind of event a timeline line is: the filter an operator reads an incident by. */
public enum TimelineKind {
  EPOCH,
  REJECTION,
  HOLD,
  CONFIRMATION,
  DRAIN,
  EJECTION,
  SHED,
  FREEZE,
  NACK,
  ROLLBACK,
  LEADER,
  SOURCE,
  TRANSITION,
  RELOAD,
  REGISTRY,
  /** An audited action no other kind names (an xDS client refused by its certificate, ...). */
  OTHER;

  /** Audit actions by kind; an action not listed is {@link #OTHER}, never an error. */
  private static final Map<String, TimelineKind> BY_ACTION = Map.ofEntries(
      Map.entry("drain", DRAIN), Map.entry("undrain", DRAIN),
      Map.entry("eject", EJECTION), Map.entry("weight", EJECTION),
      Map.entry("shed", SHED), Map.entry("unshed", SHED), Map.entry(SystemAudit.AUTOMATIC_DROP, SHED),
      Map.entry("freeze", FREEZE), Map.entry("unfreeze", FREEZE),
      Map.entry("freeze-ejections", FREEZE), Map.entry("unfreeze-ejections", FREEZE),
      Map.entry("confirm", CONFIRMATION),
      Map.entry(SystemAudit.HOLD, HOLD), Map.entry(SystemAudit.RELEASE, HOLD),
      Map.entry("rollback", ROLLBACK),
      Map.entry(SystemAudit.LEAD, LEADER), Map.entry(SystemAudit.STEP_DOWN, LEADER),
      Map.entry(SystemAudit.SOURCE_FAILED, SOURCE), Map.entry(SystemAudit.SOURCE_RECOVERED, SOURCE),
      Map.entry("transition", TRANSITION),
      Map.entry("reload", RELOAD),
      Map.entry("register", REGISTRY), Map.entry("re-register", REGISTRY), Map.entry("deregister", REGISTRY));

  public static TimelineKind ofAction(String action) {
    return BY_ACTION.getOrDefault(action, OTHER);
  }

  /** As the API and the CLI write it. */
  @JsonValue
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind written as {@link #label}, or null if there is none. */
  public static TimelineKind ofLabel(String label) {
    for (TimelineKind k : values()) {
      if (k.label().equals(label)) {
        return k;
      }
    }
    return null;
  }
}
