package io.signalbox.source.file;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inotify side of a {@link WatchedFile}: the directories that hold its name and, when the name
 * is a symlink, its current target, and what happened in them. It only says <em>that</em> something
 * happened; whether the file changed is decided by observing it, since events are lost, coalesced
 * and missing on some filesystems.
 */
final class WatchedDirectories implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(WatchedDirectories.class);

  /**
   * What one wait saw.
   *
   * @param any some event arrived in a watched directory
   * @param nameDeleted the watched name itself was deleted, or events were lost (which may have
   *     hidden that)
   */
  record Events(boolean any, boolean nameDeleted) {}

  private final Path path;
  private final WatchService watcher;
  // Only the watcher thread (or the thread starting it) registers and polls.
  private final Map<WatchKey, Path> watched = new HashMap<>();
  private volatile boolean closed;

  /** @throws IOException when no watch service can be created (out of inotify instances) */
  WatchedDirectories(Path path) throws IOException {
    this.path = path;
    this.watcher = FileSystems.getDefault().newWatchService();
  }

  /**
   * Waits up to {@code timeoutMillis} for an event, then takes every event already queued.
   *
   * @throws ClosedWatchServiceException once {@link #close} was called
   */
  Events await(long timeoutMillis) throws InterruptedException {
    WatchKey key = watcher.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    boolean any = false;
    boolean nameDeleted = false;
    while (key != null) {
      for (WatchEvent<?> event : key.pollEvents()) {
        any = true;
        nameDeleted |= deletesThisName(key, event);
      }
      if (!key.reset()) {
        watched.remove(key);
      }
      key = watcher.poll();
    }
    return new Events(any, nameDeleted);
  }

  /** A deletion of the watched name itself, or lost events (which may have hidden one). */
  private boolean deletesThisName(WatchKey key, WatchEvent<?> event) {
    if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
      return true;
    }
    Path dir = watched.get(key);
    return event.kind() == StandardWatchEventKinds.ENTRY_DELETE && dir != null
        && event.context() instanceof Path name && dir.resolve(name).equals(path);
  }

  /**
   * Watches the file's directory and, when it is a symlink, its current target's directory; called
   * again whenever a directory may have been recreated or a symlink retargeted.
   */
  void register() {
    register(path.getParent());
    try {
      Path target = path.toRealPath();
      register(target.getParent());
    } catch (IOException e) {
      // Missing or dangling: the parent directory's events will tell us when it is back.
    }
  }

  private void register(Path dir) {
    if (dir == null || closed || watched.containsValue(dir)) {
      return;
    }
    try {
      WatchKey key =
          dir.register(
              watcher,
              StandardWatchEventKinds.ENTRY_CREATE,
              StandardWatchEventKinds.ENTRY_MODIFY,
              StandardWatchEventKinds.ENTRY_DELETE);
      watched.put(key, dir);
    } catch (IOException | ClosedWatchServiceException e) {
      log.debug("cannot watch {} (polling covers it): {}", dir, e.toString());
    }
  }

  /** Ends a pending {@link #await} with {@link ClosedWatchServiceException}. */
  @Override
  public void close() {
    closed = true;
    try {
      watcher.close();
    } catch (IOException e) {
      log.debug("closing the watch service of {}", path, e);
    }
  }
}
