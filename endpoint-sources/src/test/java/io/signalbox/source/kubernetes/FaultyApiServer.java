package io.signalbox.source.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * fabric8's mock API server in CRUD mode (real HTTP, real watches over WebSockets) with the faults
 * a real API server shows, switched on and off by a test: it goes away and comes back on the same
 * port with the same objects ({@link #stop}, {@link #restart}); watches expire and resuming them is
 * answered {@code 410 Gone}, so informers must list again ({@link #expireWatches},
 * {@link #resumeWatches}); and lists come back empty ({@link #listEmpty}), as from an API server
 * whose storage lost its objects.
 */
public final class FaultyApiServer implements AutoCloseable {

  private final KubernetesCrudDispatcher objects = new KubernetesCrudDispatcher();
  private final Set<WebSocket> openWatches = ConcurrentHashMap.newKeySet();
  private final AtomicInteger fullLists = new AtomicInteger();
  private volatile boolean watchesGone;
  private volatile boolean listEmpty;
  private int port;
  private KubernetesMockServer server;
  private KubernetesClient client;

  private FaultyApiServer() {}

  /** Starts on a free loopback port. */
  public static FaultyApiServer start() {
    FaultyApiServer api = new FaultyApiServer();
    api.listen(0);
    return api;
  }

  private void listen(int onPort) {
    server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new Faults(), false);
    server.init(InetAddress.getLoopbackAddress(), onPort);
    port = server.getPort();
    client = server.createClient();
  }

  public int port() {
    return port;
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  /** A client for arranging objects; it follows {@link #restart}. */
  public KubernetesClient client() {
    return client;
  }

  /**
   * Full lists of Services or EndpointSlices answered since start (an informer's list or relist;
   * not the source's one-item reachability probe).
   */
  public int fullLists() {
    return fullLists.get();
  }

  /** The API server goes away: connections are refused until {@link #restart}. Objects are kept. */
  public void stop() {
    client.close();
    server.destroy();
  }

  /** Back on the same port, with the objects it had. */
  public void restart() {
    listen(port);
  }

  /**
   * Ends every open watch, and answers every watch request with {@code 410 Gone} (an ERROR event
   * carrying a {@code Status} with code 410, as the API server sends when the resource version a
   * watch resumes from was compacted away) until {@link #resumeWatches}: informers list again, and
   * again, and can watch only after that.
   */
  public void expireWatches() {
    watchesGone = true;
    openWatches.forEach(ws -> ws.close(1000, "watch expired"));
    openWatches.clear();
  }

  /** Watches are accepted again (from the resource version of the informer's last list). */
  public void resumeWatches() {
    watchesGone = false;
  }

  /**
   * While on, every list of Services or EndpointSlices answers 200 with no items, and watches open
   * but stay silent: the API server says consistently that there is nothing.
   */
  public void listEmpty(boolean on) {
    listEmpty = on;
  }

  @Override
  public void close() {
    stop();
  }

  private final class Faults extends Dispatcher {

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String path = request.getPath();
      boolean watch = path.contains("watch=true");
      if (watch && watchesGone) {
        return new MockResponse().withWebSocketUpgrade(new Gone());
      }
      if (watch && listEmpty) {
        return new MockResponse().withWebSocketUpgrade(new Tracked(new WebSocketListener() {}));
      }
      String collection = collection(path);
      if (!watch && "GET".equals(request.getMethod()) && collection != null) {
        if (!path.contains("limit=1&") && !path.endsWith("limit=1")) {
          fullLists.incrementAndGet();
        }
        if (listEmpty) {
          return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
              .setBody(emptyList(collection));
        }
      }
      MockResponse response = objects.dispatch(request);
      WebSocketListener listener = response.getWebSocketListener();
      return listener == null ? response : response.withWebSocketUpgrade(new Tracked(listener));
    }
  }

  /** "services" or "endpointslices" when the path lists that collection, else null. */
  private static String collection(String path) {
    String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    if (bare.endsWith("/services")) {
      return "services";
    }
    if (bare.endsWith("/endpointslices")) {
      return "endpointslices";
    }
    return null;
  }

  private static String emptyList(String collection) {
    return "services".equals(collection)
        ? "{\"apiVersion\":\"v1\",\"kind\":\"ServiceList\",\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[]}"
        : "{\"apiVersion\":\"discovery.k8s.io/v1\",\"kind\":\"EndpointSliceList\","
            + "\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[]}";
  }

  /** Answers a watch with the 410 the API server sends for an expired resource version. */
  private static final class Gone extends WebSocketListener {
    @Override
    public void onOpen(WebSocket ws, Response response) {
      ws.send("{\"type\":\"ERROR\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"metadata\":{},"
          + "\"status\":\"Failure\",\"message\":\"too old resource version: 1 (42)\",\"reason\":\"Expired\","
          + "\"code\":410}}");
      ws.close(1000, "gone");
    }
  }

  /** The CRUD dispatcher's watch, remembered while open so that it can be expired. */
  private final class Tracked extends WebSocketListener {
    private final WebSocketListener delegate;

    Tracked(WebSocketListener delegate) {
      this.delegate = delegate;
    }

    @Override
    public void onBeforeAccept(WebSocket ws, Response response) {
      delegate.onBeforeAccept(ws, response);
    }

    @Override
    public void onOpen(WebSocket ws, Response response) {
      openWatches.add(ws);
      delegate.onOpen(ws, response);
    }

    @Override
    public void onMessage(WebSocket ws, String text) {
      delegate.onMessage(ws, text);
    }

    @Override
    public void onMessage(WebSocket ws, ByteString bytes) {
      delegate.onMessage(ws, bytes);
    }

    @Override
    public void onMessage(WebSocket ws, byte[] bytes) {
      delegate.onMessage(ws, bytes);
    }

    @Override
    public void onPing(WebSocket ws, byte[] data) {
      delegate.onPing(ws, data);
    }

    @Override
    public void onClosing(WebSocket ws, int code, String reason) {
      delegate.onClosing(ws, code, reason);
    }

    @Override
    public void onClosed(WebSocket ws, int code, String reason) {
      openWatches.remove(ws);
      delegate.onClosed(ws, code, reason);
    }

    @Override
    public void onFailure(WebSocket ws, Throwable t, Response response) {
      openWatches.remove(ws);
      delegate.onFailure(ws, t, response);
    }
  }
}
