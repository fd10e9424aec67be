package aslfire;

import java.lang.reflect.Method;

/**
 * Every VASL member the extension reaches by reflection, in one place: its name in VASL 6.7.x and in the VASL of
 * 2020 (the {@code michalxo/vasl} fork, VASL 6.4 era), read by the 6.7.x name first and the older name as fallback
 * (the table in {@code vasl_extension/README.md} lists the same members with what each means). A member needed for
 * the terrain that VASL offers under neither name makes {@link Missing}: the snapshot's terrain is then an error
 * naming VASL's version and the member, one chat line says so, and Python reads the board archives instead.
 */
final class VaslApi {
  private VaslApi() {
  }

  /** A VASL member: the class that declares it, its 6.7.x and 2020 names (equal when unchanged) and a field flag. */
  enum Member {
    ASLMAP_VASL_MAP("ASLMap", "getVASLMap", "getVASLMap"),
    MAP_WIDTH("Map", "getWidth", "getWidth"),
    MAP_HEIGHT("Map", "getHeight", "getHeight"),
    MAP_HEX("Map", "getHex", "getHex"),
    MAP_GRID_WIDTH("Map", "getGridWidth", "getGridWidth"),
    MAP_GRID_HEIGHT("Map", "getGridHeight", "getGridHeight"),
    MAP_HEX_WIDTH("Map", "getHexWidth", "getHexWidth"),
    MAP_HEX_HEIGHT("Map", "getHexHeight", "getHexHeight"),
    MAP_A1_X("Map", "getA1CenterX", "getA1CenterX"),
    MAP_A1_Y("Map", "getA1CenterY", "getA1CenterY"),
    MAP_GRID_TERRAIN("Map", "getGridTerrain", "getGridTerrain"),
    MAP_GRID_TO_HEX("Map", "gridToHex", "gridToHex"),
    MAP_TERRAIN_GRID("Map", "terrainGrid", "terrainGrid", true),
    MAP_TERRAIN_LIST("Map", "terrainList", "terrainList", true),
    /** Only 6.7.x's map building has it (BoardArchive.addLOSDatatoVASLMap calls it): tells which arithmetic. */
    MAP_FLIP_GRIDS("Map", "flipTerrainAndElevationGrids", null),
    HEX_NAME("Hex", "getName", "getName"),
    HEX_COLUMN("Hex", "getColumnNumber", "getColumnNumber"),
    HEX_ROW("Hex", "getRowNumber", "getRowNumber"),
    HEX_CENTER("Hex", "getHexCenter", "getHexCenter"),
    HEX_BASE_LEVEL("Hex", "getBaseLevelofHex", "getBaseHeight"),
    HEX_CENTER_LOCATION("Hex", "getCenterLocation", "getCenterLocation"),
    LOCATION_NAME("Location", "getName", "getName"),
    LOCATION_LEVEL("Location", "getLevelInHex", "getBaseHeight"),
    LOCATION_TERRAIN("Location", "getTerrain", "getTerrain"),
    LOCATION_UP("Location", "getUpLocation", "getUpLocation"),
    LOCATION_DOWN("Location", "getDownLocation", "getDownLocation"),
    LOCATION_LOS_POINT("Location", "getLOSPoint", "getLOSPoint"),
    TERRAIN_NAME("Terrain", "getName", "getName"),
    BOARD_OVERLAYS("ASLBoard", "getOverlays", "getOverlays"),
    BOARD_STATE("ASLBoard", "getState", "getState"),
    BOARD_VERSION("ASLBoard", "getVersion", "getVersion"),
    BOARD_CROP("ASLBoard", "getCropBounds", "getCropBounds"),
    BOARD_SSR("ASLBoard", "getTerrain", "getTerrain"),
    BOARD_LEGACY("VASLBoard", "isLegacyBoard", "isLegacyBoard"),
    BOARD_UNCROPPED("ASLBoard", "getUncroppedSize", "getUncroppedSize"),
    BOARD_A1_X("VASLBoard", "getA1CenterX", "getA1CenterX"),
    BOARD_A1_Y("VASLBoard", "getA1CenterY", "getA1CenterY"),
    BOARD_NEAREST_FULL_ROW("ASLBoard", "nearestFullRow", "nearestFullRow", true),
    OVERLAY_NAME("Overlay", "getName", "getName"),
    OVERLAY_HEX1("Overlay", "hex1", "hex1", true),
    OVERLAY_HEX2("Overlay", "hex2", "hex2", true),
    OVERLAY_ELEVATION("Overlay", "getPersistElevation", "getPreserveElevation");

    final String owner;
    final String now;
    final String old;
    final boolean field;

    Member(String owner, String now, String old) {
      this(owner, now, old, false);
    }

    Member(String owner, String now, String old, boolean field) {
      this.owner = owner;
      this.now = now;
      this.old = old;
      this.field = field;
    }

    /** {@code Hex.getBaseLevelofHex (2020: getBaseHeight)}, or {@code Hex.getName}. */
    String describe() {
      return owner + "." + now + (old != null && !old.equals(now) ? " (2020: " + old + ")" : "");
    }
  }

  /** A member VASL offers under neither of its names. */
  static final class Missing extends ReflectiveOperationException {
    private static final long serialVersionUID = 1L;
    final transient Member member;

    Missing(Member member, Object target) {
      super("VASL's " + target.getClass().getName() + " has no " + member.describe());
      this.member = member;
    }
  }

  /** The method of {@code m} on the target's class for these argument types: the 6.7.x name, else the 2020 one. */
  static Method method(Object target, Member m, Class<?>... types) {
    Method found = Reflect.method(target, m.now, types);
    if (found == null && m.old != null && !m.old.equals(m.now)) {
      found = Reflect.method(target, m.old, types);
    }
    return found;
  }

  /** Whether the target's class has a public method of that name (any arguments): a probe of what VASL offers. */
  static boolean offers(Object target, Member m) {
    if (target == null) {
      return false;
    }
    for (Method x : target.getClass().getMethods()) {
      if (x.getName().equals(m.now)) {
        return true;
      }
    }
    return false;
  }

  /** {@code target.m(args)} (ints passed as {@code int}); {@link Missing} if VASL has it under neither name. */
  static Object call(Object target, Member m, Object... args) throws ReflectiveOperationException {
    if (target == null) {
      return null;
    }
    Class<?>[] types = new Class<?>[args.length];
    for (int i = 0; i < args.length; i++) {
      types[i] = args[i] instanceof Integer ? int.class : args[i].getClass();
    }
    Method found = method(target, m, types);
    if (found == null) {
      ABSENT.add(m);
      throw new Missing(m, target);
    }
    return found.invoke(target, args);
  }

  /** {@code target.m()}, or null if VASL has no such member or it fails (for the parts the snapshot may lack). */
  static Object tryCall(Object target, Member m) {
    try {
      return m.field ? field(target, m) : call(target, m);
    }
    catch (Missing e) {
      ABSENT.add(m);
      return null;
    }
    catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /** The members the extension asked VASL's objects for and found under neither name, in this session. */
  private static final java.util.Set<Member> ABSENT = java.util.Collections.synchronizedSet(
      java.util.EnumSet.noneOf(Member.class));

  static void absent(Member m) {
    ABSENT.add(m);
  }

  /** {@code ,"absent":["Hex.getBaseLevelofHex (2020: getBaseHeight)",…]}: what this VASL lacked so far. */
  static void appendAbsent(StringBuilder sb) {
    sb.append(",\"absent\":[");
    boolean first = true;
    synchronized (ABSENT) {
      for (Member m : ABSENT) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        Json.quote(sb, m.describe());
      }
    }
    sb.append(']');
  }

  /** The field {@code m} of the target (its class or a superclass, any access), or null where there is none. */
  static Object field(Object target, Member m) throws ReflectiveOperationException {
    if (target == null) {
      return null;
    }
    for (String name : new String[] {m.now, m.old}) {
      if (name == null) {
        continue;
      }
      for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
        try {
          java.lang.reflect.Field f = c.getDeclaredField(name);
          f.setAccessible(true);
          return f.get(target);
        }
        catch (NoSuchFieldException e) {
          // look in the superclass
        }
      }
    }
    ABSENT.add(m);
    return null;
  }

  /** The members already reported missing in this VASSAL session (each is said once in the chat). */
  private static final java.util.Set<Member> SAID = java.util.Collections.synchronizedSet(
      java.util.EnumSet.noneOf(Member.class));

  /** The one chat line for a member VASL lacks (once per member and session); the line's text is returned. */
  static String reportMissing(Missing e, String vaslVersion) {
    String text = "- ASL fire bridge: VASL " + (vaslVersion == null ? "(version unknown)" : vaslVersion)
        + "'s terrain model has no " + e.member.describe() + ": the bridge reads the terrain from the board archives"
        + " instead (asl-fire bridge --boards DIR).";
    if (SAID.add(e.member)) {
      FireBridge.say(text);
    }
    return text;
  }
}
