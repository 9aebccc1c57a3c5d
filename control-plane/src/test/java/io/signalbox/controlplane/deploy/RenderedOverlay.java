package io.signalbox.controlplane.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A kustomization under {@code deploy/kubernetes} as {@code kubectl kustomize} renders it, read
 * into fabric8's typed model: an unknown kind, an unknown field or a value of the wrong type (which
 * fabric8 would keep aside in {@code additionalProperties}) fails the read.
 */
record RenderedOverlay(String name, List<HasMetadata> objects) {

  static final Path KUBERNETES = Path.of("..", "deploy", "kubernetes");
  static final List<String> OVERLAYS = List.of("standalone", "ha");

  private static final Map<String, RenderedOverlay> RENDERED = new ConcurrentHashMap<>();
  private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();

  /** {@code overlays/<overlay>} rendered once per test JVM; skips the test without kubectl. */
  static RenderedOverlay of(String overlay) {
    Optional<Path> kubectl = kubectl();
    Assumptions.assumeTrue(kubectl.isPresent(), "kubectl is not installed (Debian: apt-get install"
        + " kubernetes-client; .ci/run installs it when run as root): the kustomize overlays are not rendered");
    return RENDERED.computeIfAbsent(overlay, o -> read(o, render(kubectl.get(), KUBERNETES.resolve("overlays").resolve(o))));
  }

  /** {@code $KUBECTL}, else {@code kubectl} on the PATH. */
  static Optional<Path> kubectl() {
    String explicit = System.getenv("KUBECTL");
    if (explicit != null && !explicit.isBlank()) {
      return Optional.of(Path.of(explicit));
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(dir, "kubectl");
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * The objects a kustomization outside {@code overlays} renders to, as YAML trees: for kinds
   * fabric8 has no type for (cert-manager's). Skips the test without kubectl.
   */
  static List<JsonNode> documents(Path dir) {
    Optional<Path> kubectl = kubectl();
    Assumptions.assumeTrue(kubectl.isPresent(), "kubectl is not installed: " + dir + " is not rendered");
    List<JsonNode> objects = new ArrayList<>();
    try (MappingIterator<JsonNode> documents = new YAMLMapper().readerFor(JsonNode.class)
        .readValues(render(kubectl.get(), dir))) {
      while (documents.hasNext()) {
        JsonNode document = documents.next();
        if (document != null && !document.isEmpty()) {
          objects.add(document);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the rendered " + dir, e);
    }
    return List.copyOf(objects);
  }

  private static String render(Path kubectl, Path dir) {
    try {
      Process process = new ProcessBuilder(kubectl.toString(), "kustomize", dir.toString()).start();
      CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
      String out = readAll(process.getInputStream());
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new AssertionError("kubectl kustomize " + dir + " did not finish within 2 minutes");
      }
      if (process.exitValue() != 0) {
        throw new AssertionError("kubectl kustomize " + dir + " failed (" + process.exitValue() + "): " + err.join());
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + kubectl, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  private static String readAll(java.io.InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static RenderedOverlay read(String name, String yaml) {
    List<HasMetadata> objects = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    try (MappingIterator<JsonNode> documents = new YAMLMapper().readerFor(JsonNode.class).readValues(yaml)) {
      while (documents.hasNext()) {
        JsonNode document = documents.next();
        if (document == null || document.isEmpty()) {
          continue;
        }
        HasMetadata object = FABRIC8.unmarshal(document.toString());
        String id = document.path("kind").asText() + " " + document.path("metadata").path("name").asText();
        if (object instanceof GenericKubernetesResource) {
          problems.add(id + ": fabric8 has no type for " + document.path("apiVersion").asText() + " "
              + document.path("kind").asText());
        }
        unknownFields(object, "", problems, id);
        objects.add(object);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the rendered " + name, e);
    }
    assertThat(problems).as("fields of %s that fabric8's typed model does not know", name).isEmpty();
    return new RenderedOverlay(name, List.copyOf(objects));
  }

  /** Walks fabric8 model objects; whatever landed in an {@code additionalProperties} map is unknown. */
  private static void unknownFields(Object value, String path, List<String> problems, String id) {
    if (value instanceof Collection<?> list) {
      int i = 0;
      for (Object element : list) {
        unknownFields(element, path + "[" + i++ + "]", problems, id);
      }
      return;
    }
    if (value instanceof Map<?, ?> map) {
      map.forEach((key, element) -> unknownFields(element, path + "." + key, problems, id));
      return;
    }
    if (value == null || !value.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
      return;
    }
    for (Class<?> type = value.getClass(); type != Object.class; type = type.getSuperclass()) {
      for (Field field : type.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers())) {
          continue;
        }
        Object fieldValue = get(field, value);
        if (field.getName().equals("additionalProperties") && fieldValue instanceof Map<?, ?> unknown) {
          unknown.forEach((key, v) -> problems.add(id + ": unknown field " + (path + "." + key).substring(1)));
        } else {
          unknownFields(fieldValue, path + "." + field.getName(), problems, id);
        }
      }
    }
  }

  private static Object get(Field field, Object owner) {
    try {
      field.setAccessible(true);
      return field.get(owner);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot read " + field, e);
    }
  }

  <T extends HasMetadata> List<T> all(Class<T> kind) {
    return objects.stream().filter(kind::isInstance).map(kind::cast).toList();
  }

  <T extends HasMetadata> T one(Class<T> kind) {
    List<T> found = all(kind);
    assertThat(found).as("%ss in %s", kind.getSimpleName(), name).hasSize(1);
    return found.get(0);
  }

  <T extends HasMetadata> T named(Class<T> kind, String objectName) {
    return all(kind).stream().filter(o -> objectName.equals(o.getMetadata().getName())).findFirst()
        .orElseThrow(() -> new AssertionError(name + " has no " + kind.getSimpleName() + " " + objectName));
  }

  Deployment deployment() {
    return one(Deployment.class);
  }

  PodSpec pod() {
    return deployment().getSpec().getTemplate().getSpec();
  }

  Container container() {
    List<Container> containers = pod().getContainers();
    assertThat(containers).as("containers of the Deployment in %s", name).hasSize(1);
    return containers.get(0);
  }

  Volume volume(String volumeName) {
    return pod().getVolumes().stream().filter(v -> volumeName.equals(v.getName())).findFirst()
        .orElseThrow(() -> new AssertionError(name + ": the pod has no volume " + volumeName));
  }

  /** The Signalbox config file the container reads: {@code --config} resolved through the volume mounts. */
  ConfigFile configFile(Path configPath) {
    for (var mount : container().getVolumeMounts()) {
      Path mountPath = Path.of(mount.getMountPath());
      if (configPath.getParent().equals(mountPath)) {
        Volume volume = volume(mount.getName());
        assertThat(volume.getConfigMap()).as("volume %s mounted at %s", volume.getName(), mountPath).isNotNull();
        ConfigMap map = named(ConfigMap.class, volume.getConfigMap().getName());
        String key = configPath.getFileName().toString();
        assertThat(map.getData()).as("keys of ConfigMap %s", map.getMetadata().getName()).containsKey(key);
        return new ConfigFile(map.getMetadata().getName(), key, map.getData().get(key));
      }
    }
    throw new AssertionError(name + ": no volume is mounted at " + configPath.getParent());
  }

  /** The text of one key of a ConfigMap: a Signalbox config file. */
  record ConfigFile(String configMap, String key, String text) {}
}
