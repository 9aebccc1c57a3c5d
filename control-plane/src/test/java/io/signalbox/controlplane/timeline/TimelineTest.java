package io.signalbox.controlplane.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.signalbox.store.AuditEntry;
import io.signalbox.store.ClientRecord;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.NackEvent;
import io.signalbox.store.RejectedCandidate;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineTest {

  private static final Instant T0 = Instant.parse("2025-01-02T03:00:00Z");
  private static final String CDS = "type.googleapis.com/envoy.config.cluster.v3.Cluster";

  private static Instant at(int seconds) {
    return T0.plusSeconds(seconds);
  }

  private static EpochRecord epoch(long n, int seconds, String cause) {
    return new EpochRecord(n, n - 1, at(seconds), "hash" + n, EpochStatus.SUPERSEDED, "", cause);
  }

  private static NackEvent nack(String node, int seconds, long epoch, String message) {
    return new NackEvent(new ClientRecord.Key("r1", node, 1, CDS), "web", at(seconds), epoch - 1, epoch, message,
        List.of("greeter"));
  }

  /** As the store lists them: newest first. */
  private static <T> List<T> newestFirst(List<T> oldestFirst) {
    List<T> out = new java.util.ArrayList<>(oldestFirst);
    java.util.Collections.reverse(out);
    return out;
  }

  private static List<String> lines(Timeline t) {
    return t.events().stream().map(e -> e.kind().label() + " " + e.actor() + " " + e.action() + " " + e.target()
        + " | " + e.reason()).toList();
  }

  @Test
  void mergesEveryRecordOldestFirst() {
    Timeline t = Timeline.of(new Timeline.Records(
        newestFirst(List.of(epoch(1, 0, "startup"), epoch(2, 20, "operator drain by alice"))),
        List.of(new RejectedCandidate(at(30), "config file changed", List.of("cluster 'greeter': port: bad", "more"))),
        newestFirst(List.of(new AuditEntry(at(10), "alice", "drain", "greeter/127.0.0.1:50051", "deploy"),
            new AuditEntry(at(40), "signalbox", SystemAudit.SOURCE_FAILED, "file:endpoints.yaml", "FAILED: bad"))),
        List.of(nack("web-1", 25, 2, "unsupported lb policy: MAGLEV")), true), T0, 100);

    assertThat(lines(t)).containsExactly(
        "epoch signalbox publish epoch 1 | startup",
        "drain alice drain greeter/127.0.0.1:50051 | deploy",
        "epoch signalbox publish epoch 2 | operator drain by alice",
        "nack web-1 nack epoch 2 Cluster | unsupported lb policy: MAGLEV",
        "rejection signalbox reject config file changed | cluster 'greeter': port: bad; more",
        "source signalbox source-failed file:endpoints.yaml | FAILED: bad");
    assertThat(t.truncated()).isFalse();
  }

  @Test
  void anActionAndTheEpochItCausedAtTheSameInstantKeepCauseFirst() {
    Timeline t = Timeline.of(new Timeline.Records(List.of(epoch(5, 10, "operator confirm by bob")), List.of(),
        newestFirst(List.of(new AuditEntry(at(10), "bob", "confirm", "greeter", ""),
            new AuditEntry(at(10), "signalbox", SystemAudit.RELEASE, "greeter", "released"))), List.of(), true),
        T0, 100);

    assertThat(t.events()).extracting(TimelineEvent::action).containsExactly("confirm", SystemAudit.RELEASE, "publish");
  }

  @Test
  void oneLinePerNackedEpochTypeAndMessageNamingItsClients() {
    Timeline t = Timeline.of(new Timeline.Records(List.of(), List.of(), List.of(), newestFirst(List.of(
        nack("web-3", 1, 7, "bad"), nack("web-1", 2, 7, "bad"), nack("web-2", 3, 7, "bad"),
        nack("web-4", 4, 7, "bad"), nack("web-1", 5, 7, "other"), nack("web-1", 6, 8, "bad"))), true), T0, 100);

    assertThat(lines(t)).containsExactly(
        "nack web-1, web-2, web-3 and 1 more nack epoch 7 Cluster | bad",
        "nack web-1 nack epoch 7 Cluster | other",
        "nack web-1 nack epoch 8 Cluster | bad");
    assertThat(t.events().get(0).at()).as("the first NACK's time").isEqualTo(at(1));
  }

  @Test
  void leavesOutWhatIsOlderThanSince() {
    Timeline t = Timeline.of(new Timeline.Records(newestFirst(List.of(epoch(1, 0, "startup"), epoch(2, 60, "later"))),
        List.of(), List.of(), List.of(), true), at(30), 100);

    assertThat(t.events()).extracting(TimelineEvent::target).containsExactly("epoch 2");
    assertThat(t.since()).isEqualTo(at(30));
  }

  @Test
  void keepsTheNewestUpToTheLimitAndSaysSo() {
    Timeline t = Timeline.of(new Timeline.Records(
        newestFirst(List.of(epoch(1, 0, "a"), epoch(2, 1, "b"), epoch(3, 2, "c"))), List.of(), List.of(), List.of(),
        true), T0, 2);

    assertThat(t.events()).extracting(TimelineEvent::target).containsExactly("epoch 2", "epoch 3");
    assertThat(t.truncated()).isTrue();
  }

  @Test
  void aReadThatStoppedShortOfSinceIsTruncated() {
    Timeline t = Timeline.of(new Timeline.Records(List.of(epoch(1, 0, "a")), List.of(), List.of(), List.of(), false),
        T0, 100);

    assertThat(t.truncated()).isTrue();
  }

  @Test
  void namesARejectedEpochsReason() {
    EpochRecord rejected = epoch(4, 0, "config file changed").withStatus(EpochStatus.REJECTED, "NACKed: MAGLEV");
    Timeline t = Timeline.of(new Timeline.Records(List.of(rejected), List.of(), List.of(), List.of(), true), T0, 10);

    assertThat(t.events().get(0).reason()).isEqualTo("config file changed (REJECTED: NACKed: MAGLEV)");
  }

  @Test
  void kindsFollowTheAuditActions() {
    assertThat(TimelineKind.ofAction("undrain")).isEqualTo(TimelineKind.DRAIN);
    assertThat(TimelineKind.ofAction("unshed")).isEqualTo(TimelineKind.SHED);
    assertThat(TimelineKind.ofAction(SystemAudit.AUTOMATIC_DROP)).isEqualTo(TimelineKind.SHED);
    assertThat(TimelineKind.ofAction(SystemAudit.LEAD)).isEqualTo(TimelineKind.LEADER);
    assertThat(TimelineKind.ofAction("xds.auth_failure")).isEqualTo(TimelineKind.OTHER);
  }

  @Test
  void refusesALimitBelowOne() {
    assertThatThrownBy(() -> Timeline.of(new Timeline.Records(List.of(), List.of(), List.of(), List.of(), true), T0, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("limit must be at least 1, was 0");
  }
}
