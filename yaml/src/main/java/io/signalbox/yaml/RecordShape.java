package io.signalbox.yaml;

import io.signalbox.model.Inline;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What binding a record needs of its class, looked up once: each key it accepts and the route to
 * the component that key binds (one step, or more through {@link Inline} groups, whose keys are
 * its own), the components' generic types and defaults, which are inline groups, and its
 * canonical constructor. Reflecting on every record of every read (an endpoint file is a record
 * per endpoint) parsed generic signatures each time, and made bindRecord the largest method C2
 * compiled in a run (docs/benchmarks-history.md).
 */
record RecordShape(Map<String, int[]> index, Type[] types, Object[] defaults, RecordShape[] inline,
    boolean hasInline, Constructor<?> constructor) {
  static final ClassValue<RecordShape> OF = new ClassValue<>() {
    @Override
    protected RecordShape computeValue(Class<?> type) {
      RecordComponent[] components = type.getRecordComponents();
      Map<String, int[]> index = new LinkedHashMap<>();
      Type[] types = new Type[components.length];
      Object[] defaults = new Object[components.length];
      RecordShape[] inline = new RecordShape[components.length];
      boolean hasInline = false;
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getGenericType();
        defaults[i] = Scalars.primitiveDefault(components[i].getType());
        if (components[i].isAnnotationPresent(Inline.class) && components[i].getType().isRecord()) {
          inline[i] = OF.get(components[i].getType());
          hasInline = true;
          for (Map.Entry<String, int[]> key : inline[i].index().entrySet()) {
            int[] route = new int[key.getValue().length + 1];
            route[0] = i;
            System.arraycopy(key.getValue(), 0, route, 1, key.getValue().length);
            index.put(key.getKey(), route);
          }
        } else {
          index.put(components[i].getName(), new int[] {i});
        }
      }
      try {
        Constructor<?> constructor = type.getDeclaredConstructor(
            Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
        constructor.setAccessible(true);
        return new RecordShape(java.util.Collections.unmodifiableMap(index), types, defaults, inline, hasInline,
            constructor);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot construct " + type.getName(), e);
      }
    }
  };

  /** The arguments before any key is read: defaults, and an inline group's own arguments in its slot. */
  Object[] initialArgs() {
    Object[] args = defaults.clone();
    if (hasInline) {
      for (int i = 0; i < args.length; i++) {
        if (inline[i] != null) {
          args[i] = inline[i].initialArgs();
        }
      }
    }
    return args;
  }
}
