package io.signalbox.store;

import static io.signalbox.store.ChainSealer.CLUSTERS;
import static io.signalbox.store.ChainSealer.ENDPOINTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.chain.DeltaReplay;
import io.signalbox.store.chain.EpochChain;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Epochs stored as checkpoints and deltas load, survive retention and behave alike in every store. */
public abstract class DeltaChainContract {

  protected static final Clock CLOCK = Clock.fixed(Instant.parse("2025-06-01T12:00:00Z"), ZoneOffset.UTC);

  protected SnapshotStore store;
  protected final ChainSealer sealer = new ChainSealer();
  /** Every full envelope sealed, by epoch - 1. */
  protected final List<SnapshotEnvelope> sealed = new ArrayList<>();

  protected abstract SnapshotStore openStore();

  @BeforeEach
  void open() {
    store = openStore();
  }

  @AfterEach
  void close() {
    store.close();
  }

  protected SnapshotEnvelope append() {
    SnapshotEnvelope full = store.append(sealer);
    sealed.add(full);
    return full;
  }

  /**
   * Epoch 1, then {@code changes} more, each changing something different. Epoch 1 is large enough
   * (as a real state is, next to a one-resource change) that only the count bounds the chain.
   */
  protected void appendChain(int changes) {
    for (int i = 0; i < 300; i++) {
      sealer.put(CLUSTERS, "filler-" + i, "x".repeat(200));
    }
    sealer.put(CLUSTERS, "a", "a-1").put(CLUSTERS, "b", "b-1").put(ENDPOINTS, "a", "a:1").put(ENDPOINTS, "b", "b:1")
        .endpoints("a", "10.0.0.1", "10.0.0.2").endpoints("b", "10.0.1.1");
    append();
    for (int i = 1; i <= changes; i++) {
      switch (i % 5) {
        case 0 -> sealer.endpoints("a", "10.0.0.1", "10.0.0." + (i + 2)).put(ENDPOINTS, "a", "a:" + i);
        case 1 -> sealer.put(CLUSTERS, "c" + i, "new " + i).endpoints("c" + i, "10.1.0." + i);
        case 2 -> sealer.remove(CLUSTERS, "c" + (i - 1)).endpoints("c" + (i - 1));
        case 3 -> sealer.put(CLUSTERS, "b", "b-" + i);
        default -> sealer.because("cause " + i);
      }
      append();
    }
  }

  @Test
  void aChainOfDeltasLoadsBackEqualToTheFullEnvelopesSealed() {
    appendChain(12);

    for (SnapshotEnvelope full : sealed) {
      assertThat(store.load(full.getEpoch())).contains(full);
      assertThat(store.load(full.getEpoch()).orElseThrow().toByteArray()).isEqualTo(full.toByteArray());
    }
    assertThat(store.latest()).contains(sealed.get(sealed.size() - 1));
    assertThat(store.epochs(20, Long.MAX_VALUE)).extracting(EpochRecord::contentHash)
        .startsWith("hash-13", "hash-12");
  }

  @Test
  void loadsEveryEpochAcrossACheckpointWrittenAfterTheBound() {
    appendChain(EpochChain.MAX_DEPTH + 3);

    for (SnapshotEnvelope full : sealed) {
      assertThat(store.load(full.getEpoch())).contains(full);
    }
    // Newest first, then back again: the remembered envelope never stands in for another.
    for (int i = sealed.size() - 1; i >= 0; i -= 7) {
      assertThat(store.load(sealed.get(i).getEpoch())).contains(sealed.get(i));
    }
    assertThat(store.latest()).contains(sealed.get(sealed.size() - 1));
  }

  @Test
  void rejectedAndRolledBackEpochsStillLoad() {
    appendChain(4);
    store.setStatus(4, EpochStatus.REJECTED, "NACKed");
    store.setStatus(5, EpochStatus.SUPERSEDED, "rolled back");
    // The rollback restores epoch 3's content (before b-3) as a new epoch on top of 5.
    sealer.put(CLUSTERS, "b", "b-1").because("rollback");
    append();

    for (SnapshotEnvelope full : sealed) {
      assertThat(store.load(full.getEpoch())).contains(full);
    }
    assertThat(store.epoch(4)).map(EpochRecord::status).contains(EpochStatus.REJECTED);
  }

  @Test
  void pruneKeepsEveryRowThatAKeptEpochsChainNeeds() {
    appendChain(EpochChain.MAX_DEPTH + 5);
    long newest = sealed.size();
    long checkpoint = EpochChain.MAX_DEPTH + 2;

    int deleted = store.prune(2, Set.of(10L));

    // Kept: the newest two and their chain back to the second checkpoint, and 10 with its chain.
    assertThat(deleted).isEqualTo(EpochChain.MAX_DEPTH + 1 - 10);
    assertThat(store.epochs(200, Long.MAX_VALUE)).extracting(EpochRecord::epoch)
        .contains(newest, newest - 1, checkpoint, 10L, 1L)
        .doesNotContain(11L, checkpoint - 1);
    assertThat(store.load(newest)).contains(sealed.get((int) newest - 1));
    assertThat(store.load(10)).contains(sealed.get(9));
    assertThat(store.load(11)).isEmpty();

    assertThat(store.prune(1, Set.of())).isEqualTo(10);
    assertThat(store.load(1)).isEmpty();
    assertThat(store.latest()).contains(sealed.get((int) newest - 1));
    assertThat(store.load(newest - 1)).contains(sealed.get((int) newest - 2));
    // Numbering goes on, and so does the chain.
    assertThat(append().getEpoch()).isEqualTo(newest + 1);
    assertThat(store.latest()).contains(sealed.get((int) newest));
  }

  @Test
  void aCheckpointWrittenAfterPublishingAnchorsTheChainsThatFollow() {
    int half = EpochChain.MAX_DEPTH / 2;
    appendChain(half - 1);
    assertThat(store.checkpointDue()).isFalse();
    append();
    assertThat(store.checkpointDue()).isTrue();
    long checkpoint = sealed.size();

    store.checkpoint(sealed.get((int) checkpoint - 1));

    assertThat(store.checkpointDue()).isFalse();
    for (int i = 0; i < 3; i++) {
      sealer.put(CLUSTERS, "after-" + i, "v");
      append();
    }
    for (SnapshotEnvelope full : sealed) {
      assertThat(store.load(full.getEpoch())).contains(full);
    }
    // The newest two need nothing older than the checkpoint any more.
    store.prune(2, Set.of());
    assertThat(store.epochs(200, Long.MAX_VALUE)).extracting(EpochRecord::epoch)
        .containsExactly(checkpoint + 3, checkpoint + 2, checkpoint + 1, checkpoint);
    assertThat(store.load(checkpoint)).contains(sealed.get((int) checkpoint - 1));
    assertThat(store.latest()).contains(sealed.get(sealed.size() - 1));
  }

  @Test
  void aCheckpointOfAnOlderRowLandingAfterMoreAppendsIsUsedByLaterLoadsAndEndsTheDueness() {
    int half = EpochChain.MAX_DEPTH / 2;
    appendChain(half);
    assertThat(store.checkpointDue()).isTrue();
    SnapshotEnvelope due = sealed.get(sealed.size() - 1);
    // The checkpoint runs behind the writer: three more epochs are appended before it lands.
    for (int i = 0; i < 3; i++) {
      sealer.put(CLUSTERS, "late-" + i, "v");
      append();
    }
    assertThat(store.checkpointDue()).isTrue();

    store.checkpoint(due);

    // Three deltas since the full copy now, not half the bound.
    assertThat(store.checkpointDue()).isFalse();
    for (SnapshotEnvelope full : sealed) {
      assertThat(store.load(full.getEpoch())).contains(full);
    }
    // The newest epoch needs its rows back to the full copy only: the chain's first row can go.
    store.prune(1, Set.of());
    long newest = sealed.size();
    assertThat(store.epochs(200, Long.MAX_VALUE)).extracting(EpochRecord::epoch)
        .containsExactly(newest, newest - 1, newest - 2, due.getEpoch());
    assertThat(store.latest()).contains(sealed.get((int) newest - 1));
    assertThat(store.load(due.getEpoch())).contains(due);
    // The chain goes on from the copy: due again half the bound after it.
    for (int i = 4; i < half; i++) {
      sealer.put(CLUSTERS, "later-" + i, "v");
      append();
      assertThat(store.checkpointDue()).as("after %d deltas since the full copy", i).isFalse();
    }
    append();
    assertThat(store.checkpointDue()).isTrue();
    assertThat(store.latest()).contains(sealed.get(sealed.size() - 1));
    assertThat(store.load(newest + 1)).contains(sealed.get((int) newest));
  }

  @Test
  void aCheckpointOfOtherContentThanTheEpochsChangesNothing() {
    appendChain(EpochChain.MAX_DEPTH / 2);
    SnapshotEnvelope due = sealed.get(sealed.size() - 1);

    store.checkpoint(due.toBuilder().setContentHash("hash-of-something-else").build());

    assertThat(store.checkpointDue()).isTrue();
    store.prune(1, Set.of());
    assertThat(store.epochs(200, Long.MAX_VALUE)).hasSize(sealed.size());
    assertThat(store.latest()).contains(due);
  }

  @Test
  void aCheckpointOfARowOfAnEarlierChainChangesNothing() {
    appendChain(EpochChain.MAX_DEPTH + 2 + EpochChain.MAX_DEPTH / 2);
    long secondBase = EpochChain.MAX_DEPTH + 2;
    assertThat(store.checkpointDue()).isTrue();

    store.checkpoint(sealed.get(9));

    assertThat(store.checkpointDue()).isTrue();
    store.prune(1, Set.of());
    assertThat(store.epochs(200, Long.MAX_VALUE)).extracting(EpochRecord::epoch).last().isEqualTo(secondBase);
    assertThat(store.latest()).contains(sealed.get(sealed.size() - 1));
  }

  @Test
  void checkpointsRefuseADelta() {
    appendChain(2);

    assertThatThrownBy(() -> store.checkpoint(ChainSealer.diff(sealed.get(1), sealed.get(2))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("checkpoint of epoch 3 is a delta on epoch 2, not a full envelope");
  }

  @Test
  void theEpochsAfterOneComeAsStoredOldestFirstAndReplayToTheSealedEnvelopes() {
    appendChain(6);

    List<SnapshotEnvelope> after = store.storedAfter(3, 10);

    assertThat(after).extracting(SnapshotEnvelope::getEpoch).containsExactly(4L, 5L, 6L, 7L);
    assertThat(after).allMatch(SnapshotEnvelope::getDelta, "stored as deltas");
    DeltaReplay replay = new DeltaReplay(sealed.get(2));
    for (SnapshotEnvelope delta : after) {
      replay.apply(delta);
      assertThat(replay.toEnvelope()).isEqualTo(sealed.get((int) delta.getEpoch() - 1));
    }
    assertThat(store.storedAfter(3, 2)).extracting(SnapshotEnvelope::getEpoch).containsExactly(4L, 5L);
    assertThat(store.storedAfter(7, 10)).isEmpty();
    assertThat(store.storedAfter(0, 1)).containsExactly(sealed.get(0));
  }

  @Test
  void aSealerThatOffersNoDeltaGetsFullEpochsThatLoadTheSame() {
    sealer.offeringDeltas(false);
    appendChain(3);

    for (SnapshotEnvelope full : sealed) {
      assertThat(store.load(full.getEpoch())).contains(full);
    }
  }

  @Test
  void aDeltaOnAnEpochOtherThanTheLastAppendedIsWrittenFull() {
    appendChain(2);
    ChainSealer other = new ChainSealer().restoredFrom(sealed.get(0)).onParent(1)
        .put(CLUSTERS, "z", "z-1").endpoints("z", "10.9.9.9");

    SnapshotEnvelope fromOther = store.append(other);
    sealer.onParent(3).put(CLUSTERS, "a", "a-2");
    SnapshotEnvelope next = store.append(sealer);

    assertThat(store.load(4)).contains(fromOther);
    assertThat(store.load(5)).contains(next);
    assertThat(store.load(3)).contains(sealed.get(2));
  }

  @Test
  void refusesASealerWhoseDeltaIsNotMarkedAsOne() {
    appendChain(1);
    EpochSealer<SnapshotEnvelope> wrong = new EpochSealer<>() {
      @Override
      public SnapshotEnvelope seal(long epoch) {
        return SnapshotEnvelope.newBuilder().setEpoch(epoch).setParentEpoch(epoch - 1).build();
      }

      @Override
      public SnapshotEnvelope envelope(SnapshotEnvelope s) {
        return s;
      }

      @Override
      public Optional<SnapshotEnvelope> delta(SnapshotEnvelope s) {
        return Optional.of(s);
      }
    };

    assertThatThrownBy(() -> store.append(wrong))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("sealer returned a full envelope as the delta of epoch 3");
    assertThat(store.latest()).contains(sealed.get(1));
  }
}
