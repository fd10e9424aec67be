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

  /** Appends the terrain JSON of a map, or {@code null} if VASL's model is absent or unreadable. */
  static void append(StringBuilder sb, Object map) {
    int mark = sb.length();
    try {
      Method getter = Reflect.method(map, "getVASLMap");
      if (getter == null) {
        sb.append("null");
        return;
      }
      Object vmap = getter.invoke(map);
      if (vmap == null) {
        sb.append("null");
        return;
      }
      int width = ((Number) Reflect.call(vmap, "getWidth")).intValue();
      int height = ((Number) Reflect.call(vmap, "getHeight")).intValue();
      sb.append("{\"source\":\"VASL\",\"hexes\":[");
      boolean first = true;
      for (int col = 0; col < width; col++) {
        for (int row = 0; row <= height; row++) {
          Object hex;
          try {
            hex = Reflect.call(vmap, "getHex", col, row);
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
          Json.quote(sb, Snapshot.str(Reflect.call(hex, "getName")));
          sb.append(",\"elevation\":").append(Reflect.call(hex, "getBaseHeight"));
          sb.append(",\"locations\":[");
          Object center = Reflect.call(hex, "getCenterLocation");
          Object loc = center;
          // walk down to the lowest Location, then up through every level
          for (int guard = 0; guard < 8; guard++) {
            Object down = Reflect.tryCall(loc, "getDownLocation");
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
            Object terrain = Reflect.call(loc, "getTerrain");
            sb.append("{\"name\":");
            Json.quote(sb, Snapshot.str(Reflect.call(loc, "getName")));
            sb.append(",\"level\":").append(Reflect.call(loc, "getBaseHeight"));
            sb.append(",\"terrain\":");
            Json.quote(sb, Snapshot.str(Reflect.tryCall(terrain, "getName")));
            sb.append(",\"center\":").append(loc == center);
            sb.append('}');
            loc = Reflect.tryCall(loc, "getUpLocation");
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
