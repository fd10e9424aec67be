package aslfire;

import java.lang.reflect.Method;

/**
 * VASL's terrain model, reached by reflection so the extension needs no VASL
 * classes to compile or load: a map whose class has {@code getVASLMap()}
 * (VASL's {@code ASLMap}) gives a {@code VASL.LOS.Map.Map}; its hexes give the
 * terrain and elevation of every Location. Without it, "terrain" is null and
 * Python falls back to the board archives.
 */
final class VaslTerrain {
  private VaslTerrain() {
  }

  private static Object call(Object target, String name, Object... args) throws ReflectiveOperationException {
    if (target == null) {
      return null;
    }
    Class<?>[] types = new Class<?>[args.length];
    for (int i = 0; i < args.length; i++) {
      types[i] = args[i] instanceof Integer ? int.class : args[i].getClass();
    }
    Method m = target.getClass().getMethod(name, types);
    return m.invoke(target, args);
  }

  private static Object tryCall(Object target, String name) {
    try {
      return call(target, name);
    }
    catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Appends the terrain JSON of a map, or {@code null} if VASL's model is absent or unreadable. */
  static void append(StringBuilder sb, Object map) {
    int mark = sb.length();
    try {
      Method getter;
      try {
        getter = map.getClass().getMethod("getVASLMap");
      }
      catch (NoSuchMethodException e) {
        sb.append("null");
        return;
      }
      Object vmap = getter.invoke(map);
      if (vmap == null) {
        sb.append("null");
        return;
      }
      int width = ((Number) call(vmap, "getWidth")).intValue();
      int height = ((Number) call(vmap, "getHeight")).intValue();
      sb.append("{\"source\":\"VASL\",\"hexes\":[");
      boolean first = true;
      for (int col = 0; col < width; col++) {
        for (int row = 0; row <= height; row++) {
          Object hex;
          try {
            hex = call(vmap, "getHex", col, row);
          }
          catch (ReflectiveOperationException | RuntimeException e) {
            hex = null;
          }
          if (hex == null) {
            continue;
          }
          if (!first) {
            sb.append(',');
          }
          first = false;
          sb.append("{\"name\":");
          Json.quote(sb, Snapshot.str(call(hex, "getName")));
          sb.append(",\"elevation\":").append(call(hex, "getBaseHeight"));
          sb.append(",\"locations\":[");
          Object center = call(hex, "getCenterLocation");
          Object loc = center;
          // walk down to the lowest Location, then up through every level
          for (int guard = 0; guard < 8; guard++) {
            Object down = tryCall(loc, "getDownLocation");
            if (down == null) {
              break;
            }
            loc = down;
          }
          boolean fl = true;
          for (int guard = 0; loc != null && guard < 12; guard++) {
            if (!fl) {
              sb.append(',');
            }
            fl = false;
            Object terrain = call(loc, "getTerrain");
            sb.append("{\"name\":");
            Json.quote(sb, Snapshot.str(call(loc, "getName")));
            sb.append(",\"level\":").append(call(loc, "getBaseHeight"));
            sb.append(",\"terrain\":");
            Json.quote(sb, Snapshot.str(tryCall(terrain, "getName")));
            sb.append(",\"center\":").append(loc == center);
            sb.append('}');
            loc = tryCall(loc, "getUpLocation");
          }
          sb.append("]}");
        }
      }
      sb.append("]}");
    }
    catch (ReflectiveOperationException | RuntimeException e) {
      sb.setLength(mark);
      sb.append("{\"source\":\"VASL\",\"error\":");
      Json.quote(sb, "VASL's terrain model could not be read: " + e);
      sb.append('}');
    }
  }
}
