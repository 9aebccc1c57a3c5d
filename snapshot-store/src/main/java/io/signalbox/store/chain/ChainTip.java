package io.signalbox.store.chain;

import io.signalbox.store.SnapshotStore;
import java.util.TreeMap;

/**
 * The chain a store instance is extending: the link it last appended, which the next append may
 * build a delta on, and the links of that chain since their nearest full copy, so that a
 * checkpoint of any of them ({@link SnapshotStore#checkpoint}), landing after more appends, knows
 * how far it shortens the way back to a full copy. Both stores use it, so they count alike.
 *
 * <p>Not thread-safe: each store guards it with its own lock, and holds that lock only to read or
 * record a link, never across a database write.
 */
public final class ChainTip {

  private EpochChain.Link tip;
  /** The chain's appended links by epoch, from the tip's nearest full copy on (a few dozen at most). */
  private final TreeMap<Long, EpochChain.Link> links = new TreeMap<>();
  /** The full copy a checkpoint is writing, null if none. */
  private EpochChain.FullCopy pending;

  /** The link last appended, null before the first append. */
  public EpochChain.Link link() {
    return tip;
  }

  /**
   * The link the next append may build a delta on: the tip, if its chain has room, counting from
   * the full copy a checkpoint is writing when there is one on its parent path. A checkpoint takes
   * a few hundred milliseconds (encode, then write megabytes) while the writer goes on; without
   * that credit the chain would hit its bound before the copy lands, and the append would write the
   * whole state after all. Should the copy fail, the chain ends at the next append: it then holds
   * fewer than twice the bound's deltas since its last full copy.
   */
  public EpochChain.Link extensible() {
    if (tip == null) {
      return null;
    }
    return tip.extendable() || withPending(tip).extendable() ? tip : null;
  }

  /** Whether a checkpoint is due, counting a copy being written as written. */
  public boolean checkpointDue() {
    return tip != null && withPending(tip).checkpointDue();
  }

  private EpochChain.Link withPending(EpochChain.Link link) {
    return pending != null && pending.epoch() > link.full().epoch() && onParentPath(link, pending.epoch())
        ? link.withFullCopy(pending) : link;
  }

  /**
   * Records a committed append. An append builds its link on the tip it read before its
   * transaction; a checkpoint that committed meanwhile added a nearer full copy on its parent path,
   * which the link takes here, so a concurrent checkpoint is never lost and never ends a chain.
   */
  public void appended(EpochChain.Link link) {
    if (link.chainDepth() == 0 || (tip != null && tip.baseEpoch() != link.baseEpoch())) {
      links.clear();
    }
    EpochChain.FullCopy nearest = nearestFullCopy(link.parentEpoch());
    if (link.chainDepth() > 0 && nearest != null && nearest.epoch() > link.full().epoch()) {
      link = link.withFullCopy(nearest);
    }
    links.put(link.epoch(), link);
    tip = link;
    // A full copy of a row before the tip's nearest one would shorten nothing.
    links.headMap(tip.full().epoch(), false).clear();
  }

  /**
   * Whether a full copy of {@code epoch} would shorten the tip's way back to a full copy: the row
   * was appended on the tip's chain after its nearest full copy and holds none itself.
   */
  public boolean wants(long epoch) {
    EpochChain.Link link = links.get(epoch);
    return tip != null && link != null && !link.holdsFullCopy() && epoch > tip.full().epoch();
  }

  /**
   * Starts a checkpoint of {@code epoch}, {@code bytes} long, if the store {@link #wants} it: until
   * {@link #settled}, appends count from it ({@link #extensible}).
   */
  public boolean begin(long epoch, long bytes) {
    if (!wants(epoch)) {
      return false;
    }
    pending = links.get(epoch).asFullCopy(bytes);
    return true;
  }

  /** The checkpoint of {@code epoch} committed ({@link #checkpointed} first) or failed. */
  public void settled(long epoch) {
    if (pending != null && pending.epoch() == epoch) {
      pending = null;
    }
  }

  /**
   * Records a committed full copy of {@code epoch}, {@code bytes} long. When the row is on the tip's
   * parent path the tip's count of deltas since its nearest full copy drops, so {@link
   * #checkpointDue} is false until the chain grows again.
   */
  public void checkpointed(long epoch, long bytes) {
    EpochChain.Link link = links.get(epoch);
    if (link == null || link.holdsFullCopy()) {
      return;
    }
    EpochChain.FullCopy copy = link.asFullCopy(bytes);
    links.put(epoch, link.withFullCopy(copy));
    if (tip.epoch() == epoch) {
      tip = links.get(epoch);
    } else if (copy.epoch() > tip.full().epoch() && onParentPath(tip, epoch)) {
      tip = tip.withFullCopy(copy);
      links.put(tip.epoch(), tip);
    }
    links.headMap(tip.full().epoch(), false).clear();
  }

  /** The nearest full copy at or before {@code epoch} on its parent path, among the recorded links. */
  private EpochChain.FullCopy nearestFullCopy(long epoch) {
    for (EpochChain.Link at = links.get(epoch); at != null; at = links.get(at.parentEpoch())) {
      if (at.holdsFullCopy()) {
        return at.full();
      }
    }
    return null;
  }

  /** Whether {@code ancestor} is on {@code link}'s parent path (two appends racing on one parent branch it). */
  private boolean onParentPath(EpochChain.Link link, long ancestor) {
    for (EpochChain.Link at = link; at != null && at.epoch() >= ancestor; at = links.get(at.parentEpoch())) {
      if (at.epoch() == ancestor) {
        return true;
      }
    }
    return false;
  }
}
