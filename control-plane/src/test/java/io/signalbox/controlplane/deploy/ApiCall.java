package io.signalbox.controlplane.deploy;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One request to the Kubernetes API server as its RBAC authorizer sees it: the verb, the API group,
 * the resource (with its subresource) and the namespace, derived from the HTTP method and path the
 * way the API server's request-info resolver derives them.
 *
 * @param namespace empty for a cluster-wide request (all namespaces, or a cluster-scoped resource)
 * @param apiGroup empty for the core group ({@code /api/v1})
 */
record ApiCall(String verb, String apiGroup, String resource, String namespace) implements Comparable<ApiCall> {

  /** @param pathAndQuery e.g. {@code /apis/discovery.k8s.io/v1/endpointslices?labelSelector=...&watch=true} */
  static ApiCall of(String method, String pathAndQuery) {
    int q = pathAndQuery.indexOf('?');
    String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
    String query = q < 0 ? "" : pathAndQuery.substring(q + 1);
    List<String> parts = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    String group;
    List<String> rest;
    if (parts.size() >= 3 && parts.get(0).equals("api")) {
      group = "";
      rest = parts.subList(2, parts.size());
    } else if (parts.size() >= 4 && parts.get(0).equals("apis")) {
      group = parts.get(1);
      rest = parts.subList(3, parts.size());
    } else {
      throw new IllegalArgumentException("not a resource request: " + method + " " + pathAndQuery);
    }
    String namespace = "";
    if (rest.get(0).equals("namespaces") && rest.size() >= 3) {
      namespace = rest.get(1);
      rest = rest.subList(2, rest.size());
    }
    String resource = rest.get(0) + (rest.size() >= 3 ? "/" + rest.get(2) : "");
    boolean named = rest.size() >= 2;
    boolean watch = Arrays.stream(query.split("&")).anyMatch(p -> p.equals("watch=true") || p.equals("watch=1"));
    String verb = switch (method.toUpperCase(Locale.ROOT)) {
      case "GET", "HEAD" -> watch ? "watch" : named ? "get" : "list";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> named ? "delete" : "deletecollection";
      default -> throw new IllegalArgumentException("unexpected method " + method + " " + pathAndQuery);
    };
    return new ApiCall(verb, group, resource, namespace);
  }

  boolean clusterWide() {
    return namespace.isEmpty();
  }

  @Override
  public int compareTo(ApiCall o) {
    return toString().compareTo(o.toString());
  }

  @Override
  public String toString() {
    return verb + " " + (apiGroup.isEmpty() ? "" : apiGroup + "/") + resource
        + (clusterWide() ? " (all namespaces)" : " in " + namespace);
  }
}
