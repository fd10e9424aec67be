package aslfire;

import java.lang.reflect.Method;

/**
 * Calls on VASL's objects by method name, so the extension needs no VASL
 * classes to compile or load ({@link VaslApi} names every VASL member and
 * calls it through here).
 */
final class Reflect {
  private Reflect() {
  }

  /** Methods already looked up, by class, name and argument types (a terrain walk calls the same few thousands of times). */
  private static final java.util.Map<String, java.util.Optional<Method>> CACHE =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The public method {@code name} of the object's class for these argument types, or null. */
  static Method method(Object target, String name, Class<?>... types) {
    StringBuilder key = new StringBuilder(target.getClass().getName()).append('#').append(name);
    for (Class<?> t : types) {
      key.append(',').append(t.getName());
    }
    String k = key.toString();
    java.util.Optional<Method> m = CACHE.get(k);
    if (m == null) {
      m = java.util.Optional.ofNullable(lookup(target, name, types));
      CACHE.put(k, m);
    }
    return m.orElse(null);
  }

  private static Method lookup(Object target, String name, Class<?>... types) {
    Method m;
    try {
      m = target.getClass().getMethod(name, types);
    }
    catch (NoSuchMethodException | RuntimeException | LinkageError e) {
      return null;
    }
    try {
      m.setAccessible(true);  // a public method declared by a non-public class
    }
    catch (RuntimeException e) {
      // not needed for a public class
    }
    return m;
  }

  /** {@code target.name(args)}; ints are passed as {@code int}. */
  static Object call(Object target, String name, Object... args) throws ReflectiveOperationException {
    if (target == null) {
      return null;
    }
    Class<?>[] types = new Class<?>[args.length];
    for (int i = 0; i < args.length; i++) {
      types[i] = args[i] instanceof Integer ? int.class : args[i].getClass();
    }
    Method m = method(target, name, types);
    if (m == null) {
      throw new NoSuchMethodException(target.getClass().getName() + "." + name);
    }
    return m.invoke(target, args);
  }

  /** {@code target.name()}, or null if there is no such method or it fails. */
  static Object tryCall(Object target, String name) {
    try {
      return call(target, name);
    }
    catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }
}
