package io.signalbox.store.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.ChainSealer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Rebuilding full envelopes from a chain's rows: the result equals the envelope that was sealed,
 * byte for byte; the envelope remembered saves re-reading the full copy, and a branch or a missing
 * row is found, never papered over.
 */
class FullEnvelopesTest {

  /** One chain's rows as a store holds them, counting the full copies read. */
  private static final class StoredRows implements FullEnvelopes.Rows {
    final TreeMap<Long, SnapshotEnvelope> deltas = new TreeMap<>();
    final TreeMap<Long, SnapshotEnvelope> fullCopies = new TreeMap<>();
    final List<Long> fullCopiesRead = new ArrayList<>();

    @Override
    public long nearestFullCopy(long baseEpoch, long epoch) {
      Long at = fullCopies.floorKey(epoch);
      return at == null ? -1 : at;
    }

    @Override
    public SnapshotEnvelope fullCopy(long epoch) {
      fullCopiesRead.add(epoch);
      return fullCopies.get(epoch);
    }

    @Override
    public NavigableMap<Long, SnapshotEnvelope> deltas(long baseEpoch, long fromEpoch, long toEpoch) {
      return deltas.subMap(fromEpoch, true, toEpoch, true);
    }
  }

  private final ChainSealer sealer = new ChainSealer();
  private final StoredRows rows = new StoredRows();
  private final FullEnvelopes envelopes = new FullEnvelopes();
  /** Every epoch as sealed, whole. */
  private final Map<Long, SnapshotEnvelope> sealed = new HashMap<>();

  /** Seals {@code epoch} (the next) and stores it as a base row, or as a delta on the previous. */
  private SnapshotEnvelope store(long epoch, boolean base) {
    SnapshotEnvelope full = sealer.seal(epoch);
    sealed.put(epoch, full);
    if (base) {
      rows.fullCopies.put(epoch, full);
    } else {
      rows.deltas.put(epoch, ChainSealer.diff(sealed.get(full.getParentEpoch()), full));
    }
    return full;
  }

  /** Base 1 and deltas 2..5, each changing a resource, adding a cluster's endpoints or removing one. */
  private void fiveEpochs() {
    sealer.put(ChainSealer.CLUSTERS, "web", "v1").endpoints("web", "10.0.0.1");
    store(1, true);
    sealer.put(ChainSealer.CLUSTERS, "web", "v2");
    store(2, false);
    sealer.put(ChainSealer.CLUSTERS, "api", "v1").endpoints("api", "10.0.0.2", "10.0.0.3");
    store(3, false);
    sealer.remove(ChainSealer.CLUSTERS, "web").endpoints("web");
    store(4, false);
    sealer.put(ChainSealer.ENDPOINTS, "api", "cla1");
    store(5, false);
  }

  @Test
  void rebuildsEachEpochAsItWasSealed() {
    fiveEpochs();

    for (long epoch = 1; epoch <= 5; epoch++) {
      assertThat(new FullEnvelopes().load(epoch, 1, rows).toByteString())
          .as("epoch %d", epoch).isEqualTo(sealed.get(epoch).toByteString());
    }
  }

  @Test
  void aFullCopyWithNoDeltasAfterItIsReturnedAsStored() {
    fiveEpochs();

    assertThat(envelopes.load(1, 1, rows)).isSameAs(rows.fullCopies.get(1L));
  }

  @Test
  void theNextEpochOfTheSameChainAppliesOnlyTheDeltasAfterTheOneLoaded() {
    fiveEpochs();
    envelopes.load(3, 1, rows);
    rows.deltas.remove(2L);

    SnapshotEnvelope five = envelopes.load(5, 1, rows);

    assertThat(five).isEqualTo(sealed.get(5L));
    assertThat(rows.fullCopiesRead).containsExactly(1L);
  }

  @Test
  void anEnvelopeRememberedOnAppendIsTheStartOfTheNextLoad() {
    fiveEpochs();
    envelopes.remember(sealed.get(4L), 1);

    assertThat(envelopes.load(5, 1, rows)).isEqualTo(sealed.get(5L));
    assertThat(envelopes.load(4, 1, rows)).as("itself, once loaded anew").isEqualTo(sealed.get(4L));
    assertThat(rows.fullCopiesRead).containsExactly(1L);
  }

  @Test
  void anOlderEnvelopeOfTheSameChainDoesNotReplaceTheOneRemembered() {
    fiveEpochs();
    envelopes.remember(sealed.get(4L), 1);
    envelopes.remember(sealed.get(2L), 1);
    rows.deltas.remove(3L);

    assertThat(envelopes.load(5, 1, rows)).isEqualTo(sealed.get(5L));
    assertThat(rows.fullCopiesRead).isEmpty();
  }

  @Test
  void afterForgetTheFullCopyIsReadAgain() {
    fiveEpochs();
    envelopes.load(4, 1, rows);

    envelopes.forget();
    envelopes.load(5, 1, rows);

    assertThat(rows.fullCopiesRead).containsExactly(1L, 1L);
  }

  @Test
  void aLaterFullCopyIsNearerThanTheBase() {
    fiveEpochs();
    rows.fullCopies.put(4L, sealed.get(4L));
    rows.deltas.remove(2L);
    rows.deltas.remove(3L);

    assertThat(envelopes.load(5, 1, rows)).isEqualTo(sealed.get(5L));
    assertThat(rows.fullCopiesRead).containsExactly(4L);
  }

  @Test
  void anEpochOnAnotherBranchThanTheOneRememberedIsRebuiltFromTheBranchPoint() {
    fiveEpochs();
    // Two appends raced on parent 4: 6 is on the branch beside 5.
    sealer.onParent(4).put(ChainSealer.CLUSTERS, "db", "v1");
    SnapshotEnvelope six = sealer.seal(6);
    rows.deltas.put(6L, ChainSealer.diff(sealed.get(4L), six));
    envelopes.load(5, 1, rows);

    assertThat(envelopes.load(6, 1, rows)).isEqualTo(six);
  }

  @Test
  void aMissingRowIsNamed() {
    fiveEpochs();
    rows.deltas.remove(3L);

    assertThatThrownBy(() -> envelopes.load(5, 1, rows))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("epoch 5: a row of its chain from base 1 is missing");
  }

  @Test
  void aChainWithNoFullCopyIsNamed() {
    fiveEpochs();
    rows.fullCopies.clear();

    assertThatThrownBy(() -> envelopes.load(3, 1, rows))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("epoch 3: a row of its chain from base 1 is missing");
  }
}
