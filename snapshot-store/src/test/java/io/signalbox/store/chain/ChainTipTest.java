package io.signalbox.store.chain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The tip a store extends: when the next append may be a delta, when a checkpoint is due and
 * wanted, and how a checkpoint (landed, in flight, or failed) moves both. Links are built the way
 * {@link EpochChain#choose} builds them.
 */
class ChainTipTest {

  /** A full copy this large: the byte bound stays out of the way unless a test says otherwise. */
  private static final long FULL = 1_000_000;
  private static final long DELTA = 100;

  private final ChainTip tip = new ChainTip();

  private static EpochChain.Link base(long epoch, long bytes) {
    return new EpochChain.Link(epoch, epoch - 1, epoch, 0, 0, new EpochChain.FullCopy(epoch, 0, 0, bytes));
  }

  private static EpochChain.Link delta(EpochChain.Link on, long epoch, long bytes) {
    return new EpochChain.Link(epoch, on.epoch(), on.baseEpoch(), on.chainDepth() + 1, on.chainBytes() + bytes,
        on.full());
  }

  /** Appends a base at {@code 1}, then {@code deltas} deltas on the tip each time; the last link. */
  private EpochChain.Link chain(int deltas) {
    EpochChain.Link link = base(1, FULL);
    tip.appended(link);
    for (int i = 0; i < deltas; i++) {
      link = delta(tip.link(), link.epoch() + 1, DELTA);
      tip.appended(link);
    }
    return link;
  }

  @Test
  void nothingExtendsAndNothingIsDueBeforeTheFirstAppend() {
    assertThat(tip.link()).isNull();
    assertThat(tip.extensible()).isNull();
    assertThat(tip.checkpointDue()).isFalse();
    assertThat(tip.wants(1)).isFalse();
    assertThat(tip.begin(1, FULL)).isFalse();
  }

  @Test
  void theTipExtendsUntilItHoldsMaxDepthDeltasSinceItsFullCopy() {
    chain(EpochChain.MAX_DEPTH - 1);
    assertThat(tip.extensible()).isSameAs(tip.link());

    chain(EpochChain.MAX_DEPTH);
    assertThat(tip.link().depth()).isEqualTo(EpochChain.MAX_DEPTH);
    assertThat(tip.extensible()).isNull();
  }

  @Test
  void theTipStopsExtendingOnceItsDeltasOutweighItsFullCopy() {
    tip.appended(base(1, 1_000));
    tip.appended(delta(tip.link(), 2, 600));
    assertThat(tip.extensible()).isNotNull();

    tip.appended(delta(tip.link(), 3, 400));

    assertThat(tip.link().deltaBytes()).isEqualTo(1_000);
    assertThat(tip.extensible()).isNull();
  }

  @Test
  void aCheckpointIsDueHalfWayToTheDepthBound() {
    chain(EpochChain.MAX_DEPTH / 2 - 1);
    assertThat(tip.checkpointDue()).isFalse();

    tip.appended(delta(tip.link(), tip.link().epoch() + 1, DELTA));

    assertThat(tip.checkpointDue()).isTrue();
  }

  @Test
  void aLandedCheckpointOnTheParentPathShortensTheTipsWayBack() {
    chain(40);
    assertThat(tip.checkpointDue()).isTrue();
    assertThat(tip.wants(30)).isTrue();

    tip.checkpointed(30, FULL);

    assertThat(tip.link().full().epoch()).isEqualTo(30);
    assertThat(tip.link().depth()).isEqualTo(11);
    assertThat(tip.checkpointDue()).isFalse();
    // Rows before the nearest full copy would shorten nothing any more; the copy itself is held.
    assertThat(tip.wants(20)).isFalse();
    assertThat(tip.wants(30)).isFalse();
    assertThat(tip.wants(35)).isTrue();
  }

  @Test
  void aCheckpointOfTheTipItselfMakesItsOwnRowTheFullCopy() {
    EpochChain.Link last = chain(40);

    tip.checkpointed(last.epoch(), FULL);

    assertThat(tip.link().holdsFullCopy()).isTrue();
    assertThat(tip.link().depth()).isZero();
    assertThat(tip.wants(last.epoch())).isFalse();
  }

  @Test
  void aCheckpointInFlightLetsTheChainGoOnPastTheBoundUntilItSettles() {
    chain(40);
    assertThat(tip.begin(30, FULL)).isTrue();
    assertThat(tip.checkpointDue()).as("the copy being written counts as written").isFalse();
    for (long e = 42; e <= 1 + EpochChain.MAX_DEPTH; e++) {
      tip.appended(delta(tip.link(), e, DELTA));
    }
    assertThat(tip.link().depth()).isEqualTo(EpochChain.MAX_DEPTH);
    assertThat(tip.extensible()).as("credited with the copy of 30 being written").isSameAs(tip.link());

    tip.settled(30);

    assertThat(tip.extensible()).as("the copy failed: the chain ends at the next append").isNull();
  }

  @Test
  void aCheckpointIsBegunOnlyForARowTheTipWants() {
    chain(10);
    assertThat(tip.begin(1, FULL)).as("the base holds a full copy").isFalse();
    assertThat(tip.begin(99, FULL)).as("never appended").isFalse();
    assertThat(tip.begin(5, FULL)).isTrue();
  }

  @Test
  void settlingAnotherEpochLeavesTheCheckpointInFlight() {
    chain(EpochChain.MAX_DEPTH);
    assertThat(tip.begin(40, FULL)).isTrue();

    tip.settled(41);

    assertThat(tip.extensible()).isSameAs(tip.link());
  }

  @Test
  void anAppendBuiltBeforeAConcurrentCheckpointTakesItsNearerFullCopy() {
    chain(40);
    EpochChain.Link builtOn = tip.link();
    // The checkpoint of 30 commits while the append of 42 is in its transaction, built on the old tip.
    tip.checkpointed(30, FULL);

    tip.appended(delta(builtOn, 42, DELTA));

    assertThat(tip.link().full().epoch()).isEqualTo(30);
    assertThat(tip.link().depth()).isEqualTo(12);
  }

  @Test
  void aNewChainForgetsTheLinksOfTheOld() {
    chain(40);

    tip.appended(base(100, FULL));

    assertThat(tip.link().epoch()).isEqualTo(100);
    assertThat(tip.wants(30)).isFalse();
    tip.checkpointed(30, FULL);
    assertThat(tip.link().full().epoch()).isEqualTo(100);
  }

  @Test
  void aCheckpointOfARowOnAnotherBranchLeavesTheTipAlone() {
    chain(40);
    // Two appends raced on parent 40: 42 branches off beside 41, and becomes the tip.
    EpochChain.Link forty = new EpochChain.Link(40, 39, 1, 39, 39 * DELTA, new EpochChain.FullCopy(1, 0, 0, FULL));
    tip.appended(delta(forty, 42, DELTA));

    tip.checkpointed(41, FULL);

    assertThat(tip.link().epoch()).isEqualTo(42);
    assertThat(tip.link().full().epoch()).as("41 is not on 42's parent path").isEqualTo(1);
  }
}
