package aslfire;

import java.awt.Point;
import java.awt.Rectangle;
import java.lang.reflect.Method;

import VASSAL.build.GameModule;
import VASSAL.build.module.Map;
import VASSAL.build.module.map.boardPicker.Board;

/**
 * VASL's terrain model, reached by reflection so the extension needs no VASL
 * classes to compile or load: a map whose class has {@code getVASLMap()}
 * (VASL's {@code ASLMap}) gives a {@code VASL.LOS.Map.Map}; its hexes give the
 * terrain and elevation of every Location. Without it, "terrain" is null and
 * Python falls back to the board archives.
 *
 * <p>On a map of several boards VASL's {@code Map} is one merged grid whose hex
 * names are board-local ({@code A1} on every board), so each hex is sent with
 * its grid position ({@code col}, {@code row}: VASL's
 * {@code getColumnNumber()}/{@code getRowNumber()}) and its board, found from
 * its centre point against each board's rectangle, never from its name.
 * {@code getHex(col, row)} has no bounds check and a column holds
 * {@code height + col % 2} hexes (more or fewer on cropped boards), so each
 * column is walked until VASL's array ends.
 *
 * <p>The terrain is the costly part of a snapshot and changes only with the
 * boards: {@link #key} names it (boards, places, VASL's saved board states with
 * overlays and SSR, and the model's identity), and a caller that already has
 * that terrain gets {@code {"source": "VASL", "key": …, "same": true}} instead.
 */
final class VaslTerrain {
  private VaslTerrain() {
  }

  /** VASL's terrain model of the map, or null (not VASL's map, or VASL's LOS is off: legacy mode). */
  static Object model(Map map) {
    Method getter = VaslApi.method(map, VaslApi.Member.ASLMAP_VASL_MAP);
    if (getter == null) {
      return null;
    }
    try {
      return getter.invoke(map);
    }
    catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /**
   * Which terrain model the running VASL builds, told from what its {@code Map} offers (not from a version string):
   * {@code "6.7"} where it has {@code flipTerrainAndElevationGrids} (VASL 6.7.x's map building and per-hex reading),
   * {@code "2020"} where it lacks it (the VASL of 2020), null without VASL's model. Python reads the board archives
   * with the same model ({@code asl_vassal_bridge.vasl.board.VaslModel}).
   */
  static String modelId(Object vmap) {
    if (vmap == null) {
      return null;
    }
    return VaslApi.offers(vmap, VaslApi.Member.MAP_FLIP_GRIDS) ? "6.7" : "2020";
  }

  /** What the terrain depends on: null without VASL's model, else a short string that changes when the terrain may. */
  static String key(Map map, Object vmap) {
    if (vmap == null) {
      return null;
    }
    StringBuilder k = new StringBuilder();
    k.append(Integer.toHexString(System.identityHashCode(vmap)));
    for (Board b : map.getBoards()) {
      Rectangle r = b.bounds();
      k.append('|').append(b.getName()).append(b.isReversed() ? "/rev" : "")
        .append('@').append(r.x).append(',').append(r.y).append(',').append(r.width).append(',').append(r.height)
        .append(':').append(VaslBoards.isVaslBoard(b) ? Snapshot.str(VaslApi.tryCall(b, VaslApi.Member.BOARD_STATE)) : "");
    }
    return Integer.toHexString(k.toString().hashCode()) + "-" + Integer.toHexString(k.length());
  }

  /**
   * Appends the terrain JSON of a map, or {@code null} if VASL's model is absent; {@code "same": true} without the
   * hexes if {@code known} is this terrain's key. Reads VASL's model in one go if it is not kept: a caller off the
   * Swing thread reads it first in slices ({@link #prepare(String)}).
   */
  static void append(StringBuilder sb, Map map, Object vmap, String key, String known) {
    if (vmap == null) {
      sb.append("null");
      return;
    }
    if (key != null && key.equals(known)) {
      sb.append("{\"source\":\"VASL\",\"key\":");
      Json.quote(sb, key);
      sb.append(",\"same\":true}");
      return;
    }
    String kept = key == null ? null : SENT.get(key);
    if (kept != null) {
      sb.append(kept);
      return;
    }
    Read read = new Read(map, vmap, key);
    read.step(Long.MAX_VALUE);
    sb.append(read.finish());
  }

  /**
   * One reading of a map's terrain JSON from VASL's model, resumable: {@link #step} reads hexes until a deadline, so
   * that a caller off the Swing thread can read a large map in slices of the Swing thread's time, and the Swing
   * thread paints and answers the player between them. Every step runs on the Swing thread; the JSON is the same
   * whether read in one step or many.
   */
  static final class Read {
    final Map map;
    final Object vmap;
    final String key;
    private final StringBuilder sb = new StringBuilder(1 << 16);
    private Hexes hexes;
    /** VASL's model could not be read: {@link #sb} holds the error JSON instead. */
    private boolean failed;
    private boolean done;
    /** Nanoseconds spent reading on the Swing thread, over every step; and the steps. */
    private long spent;
    private int steps;

    Read(Map map, Object vmap, String key) {
      this.map = map;
      this.vmap = vmap;
      this.key = key;
    }

    /** Reads on until {@code deadline} ({@code System.nanoTime()}) or the end; true when the read is complete. */
    boolean step(long deadline) {
      if (done) {
        return true;
      }
      long t0 = System.nanoTime();
      try {
        if (hexes == null) {
          sb.append("{\"source\":\"VASL\",\"key\":");
          Json.quote(sb, key);
          hexes = new Hexes(sb, map, vmap);
        }
        done = hexes.step(deadline);
      }
      catch (VaslApi.Missing e) {
        // a member VASL offers under neither name: say which, once, and let Python read the board archives
        String version = vaslVersion();
        sb.setLength(0);
        sb.append("{\"source\":\"VASL\",\"error\":");
        Json.quote(sb, "VASL " + (version == null ? "(version unknown)" : version) + "'s terrain model has no "
            + e.member.describe() + ": the extension cannot read it");
        sb.append(",\"missing\":");
        Json.quote(sb, e.member.describe());
        sb.append(",\"vasl_version\":");
        Json.quote(sb, version);
        VaslApi.appendAbsent(sb);
        sb.append('}');
        VaslApi.reportMissing(e, version);
        failed = true;
        done = true;
      }
      catch (ReflectiveOperationException | RuntimeException e) {
        sb.setLength(0);
        sb.append("{\"source\":\"VASL\",\"error\":");
        Json.quote(sb, "VASL's terrain model could not be read: " + e);
        sb.append('}');
        failed = true;
        done = true;
      }
      spent += System.nanoTime() - t0;
      steps++;
      return done;
    }

    /** The terrain JSON of a complete read, kept by its key if it is not an error. */
    String finish() {
      if (failed) {
        return sb.toString();
      }
      VaslApi.appendAbsent(sb);
      // how long reading VASL's model took on VASSAL's Swing thread, over all its slices (bench/bench_bridge.py)
      sb.append(",\"read_ms\":").append(spent / 1000000).append(",\"slices\":").append(steps);
      sb.append('}');
      String json = sb.toString();
      if (key != null) {
        SENT.put(key, json);
        SENT_KEYS.add(key);
      }
      return json;
    }
  }

  /**
   * The terrain JSON of the last few board sets, by key: read from VASL's model once per board set (the key changes
   * with the boards, their crops, overlays and SSR, and VASL's model itself), so a restarted bridge, another client or
   * a second map read it again at the cost of a copy. Only used on the Swing thread.
   */
  private static final java.util.Map<String, String> SENT = new java.util.LinkedHashMap<String, String>(4, 0.75f,
      true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(java.util.Map.Entry<String, String> eldest) {
      if (size() > 2) {
        SENT_KEYS.remove(eldest.getKey());
        return true;
      }
      return false;
    }
  };

  /** The keys of {@link #SENT}, readable off the Swing thread. */
  private static final java.util.Set<String> SENT_KEYS = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** Forgets the terrain read (the next snapshot with terrain reads VASL's model again). */
  static void forget() {
    SENT.clear();
    SENT_KEYS.clear();
  }

  /** Longest the Swing thread is held by one slice of a terrain read, in milliseconds. */
  static final long SLICE_MS = Long.getLong("aslfire.sliceMs", 40L);

  /** One terrain read at a time (the bridge connecting, a game opened, a press's snapshot), off the Swing thread. */
  private static final Object READING = new Object();

  /**
   * Reads every map's terrain now, if not kept already and not {@code known} (a key the caller has read), so that
   * the next snapshot finds it read: when the bridge connects, when a game starts with the bridge connected, and
   * before a snapshot with terrain. Runs off the Swing thread, reading VASL's model in slices of at most
   * {@link #SLICE_MS} of the Swing thread's time; stops without keeping anything if the game, its boards or VASL's
   * model change in between (a later snapshot reads them as they are then).
   */
  static void prepare(String known) throws Edt.EdtFailure {
    if (javax.swing.SwingUtilities.isEventDispatchThread()) {
      throw new IllegalStateException("VaslTerrain.prepare runs off the Swing thread");
    }
    // the caller has the terrain kept: no call onto the Swing thread at a later press (boards changed since then, a
    // new game's, are read when the game opens; else by the snapshot itself)
    if (known != null && SENT_KEYS.contains(known)) {
      return;
    }
    synchronized (READING) {
      java.util.List<Read> reads = Edt.call(() -> {
        java.util.List<Read> out = new java.util.ArrayList<>();
        GameModule gm = GameModule.getGameModule();
        if (gm == null || !gm.getGameState().isGameStarted()) {
          return out;
        }
        for (Map map : Map.getMapList()) {
          Object vmap = model(map);
          String key = key(map, vmap);
          if (key != null && !key.equals(known) && !SENT.containsKey(key)) {
            out.add(new Read(map, vmap, key));
          }
        }
        return out;
      }, FireBridge.EDT_TIMEOUT_MS, "reading VASL's terrain");
      for (Read read : reads) {
        boolean complete = false;
        while (!complete) {
          Boolean more = Edt.call(() -> {
            if (!GameModule.getGameModule().getGameState().isGameStarted() || model(read.map) != read.vmap
                || !read.key.equals(key(read.map, read.vmap))) {
              return null;  // the game or its boards changed under the read
            }
            boolean end = read.step(System.nanoTime() + SLICE_MS * 1000000L);
            if (end) {
              read.finish();
            }
            return end;
          }, FireBridge.EDT_TIMEOUT_MS, "reading VASL's terrain");
          if (more == null) {
            return;
          }
          complete = more;
        }
      }
    }
  }

  /**
   * {@link #prepare(String)} on a thread of its own, then {@code after} (if any) on that thread: what the Swing thread
   * starts (the bridge connecting, a game opened) and does not wait for.
   */
  static void prepareInBackground(Runnable after) {
    Thread t = new Thread(() -> {
      try {
        prepare(null);
      }
      catch (Edt.EdtFailure e) {
        // the first press's snapshot reads the terrain then, and says what is wrong
      }
      if (after != null) {
        after.run();
      }
    }, "aslfire-terrain");
    t.setDaemon(true);
    t.start();
  }

  /**
   * The {@code ,"width":…,"hexes":[…]} part of the terrain JSON, hex by hex in VASL's grid (column by column, each
   * column walked until VASL's array ends), resumable between hexes.
   */
  private static final class Hexes {
    private final StringBuilder sb;
    private final Object vmap;
    private final int width;
    private final int height;
    private final java.util.List<Board> boards;
    private final int ox;
    private final int oy;
    private final Object[] grid;
    private final java.util.Map<Board, double[]> shifts = new java.util.IdentityHashMap<>();
    private int col;
    private int row;
    private boolean first = true;

    Hexes(StringBuilder sb, Map map, Object vmap) throws ReflectiveOperationException {
      this.sb = sb;
      this.vmap = vmap;
      width = ((Number) VaslApi.call(vmap, VaslApi.Member.MAP_WIDTH)).intValue();
      height = ((Number) VaslApi.call(vmap, VaslApi.Member.MAP_HEIGHT)).intValue();
      // VASL's map pixels start at the top left of the boards (VASSAL's map adds its edge around them)
      boards = new java.util.ArrayList<>(map.getBoards());
      int x = Integer.MAX_VALUE;
      int y = Integer.MAX_VALUE;
      for (Board b : boards) {
        x = Math.min(x, b.bounds().x);
        y = Math.min(y, b.bounds().y);
      }
      ox = x;
      oy = y;
      grid = terrainGrid(vmap);
      for (Board b : boards) {
        // a plain VASSAL board (not VASL's) has no crop or geometry to place its survey by
        shifts.put(b, VaslBoards.isVaslBoard(b) ? cropShift(vmap, grid, b, b.bounds().x - ox, b.bounds().y - oy)
            : null);
      }
      sb.append(",\"width\":").append(width).append(",\"height\":").append(height).append(",\"hexes\":[");
    }

    /**
     * Appends hexes until {@code deadline} ({@code System.nanoTime()}; at least one hex) or the last; true once the
     * list is closed.
     */
    boolean step(long deadline) throws ReflectiveOperationException {
      boolean progressed = false;
      for (; col < width; col++, row = 0) {
        for (; row < height + 2; row++) {
          if (progressed && System.nanoTime() >= deadline) {
            return false;
          }
          progressed = true;
          Object hex;
          try {
            hex = VaslApi.call(vmap, VaslApi.Member.MAP_HEX, col, row);
          }
          catch (java.lang.reflect.InvocationTargetException e) {
            break;  // VASL's hexGrid[col] has ended (no bounds check: ArrayIndexOutOfBounds)
          }
          if (hex == null) {
            continue;
          }
          if (!first) {
            sb.append(',');
          }
          first = false;
          appendHex(sb, vmap, grid, hex, col, row, boards, ox, oy, shifts);
        }
      }
      sb.append(']');
      return true;
    }
  }

  private static void appendHex(StringBuilder sb, Object vmap, Object[] grid, Object hex, int col, int row,
                                java.util.List<Board> boards, int ox, int oy, java.util.Map<Board, double[]> shifts)
      throws ReflectiveOperationException {
    sb.append("{\"name\":");
    Json.quote(sb, Snapshot.str(VaslApi.call(hex, VaslApi.Member.HEX_NAME)));
    Object c = VaslApi.tryCall(hex, VaslApi.Member.HEX_COLUMN);
    Object r = VaslApi.tryCall(hex, VaslApi.Member.HEX_ROW);
    sb.append(",\"col\":").append(c instanceof Number ? ((Number) c).intValue() : col);
    sb.append(",\"row\":").append(r instanceof Number ? ((Number) r).intValue() : row);
    sb.append(",\"board\":");
    Object centre = VaslApi.tryCall(hex, VaslApi.Member.HEX_CENTER);
    String board = null;
    double[] shift = null;
    if (centre instanceof Point) {
      Point p = new Point(((Point) centre).x + ox, ((Point) centre).y + oy);
      for (Board b : boards) {
        if (b.bounds().contains(p)) {
          board = b.getName();
          shift = shifts.get(b);
          break;
        }
      }
    }
    Json.quote(sb, board);
    sb.append(",\"elevation\":").append(VaslApi.call(hex, VaslApi.Member.HEX_BASE_LEVEL));
    sb.append(",\"locations\":[");
    Object center = VaslApi.call(hex, VaslApi.Member.HEX_CENTER_LOCATION);
    Object loc = center;
    // walk down to the lowest Location, then up through every level
    for (int guard = 0; guard < 8; guard++) {
      Object down = VaslApi.tryCall(loc, VaslApi.Member.LOCATION_DOWN);
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
      Object terrain = VaslApi.call(loc, VaslApi.Member.LOCATION_TERRAIN);
      sb.append("{\"name\":");
      Json.quote(sb, Snapshot.str(VaslApi.call(loc, VaslApi.Member.LOCATION_NAME)));
      sb.append(",\"level\":").append(VaslApi.call(loc, VaslApi.Member.LOCATION_LEVEL));
      sb.append(",\"terrain\":");
      Json.quote(sb, Snapshot.str(VaslApi.tryCall(terrain, VaslApi.Member.TERRAIN_NAME)));
      sb.append(",\"center\":").append(loc == center);
      sb.append('}');
      loc = VaslApi.tryCall(loc, VaslApi.Member.LOCATION_UP);
    }
    sb.append(']');
    String ground = Snapshot.str(VaslApi.tryCall(VaslApi.call(center, VaslApi.Member.LOCATION_TERRAIN),
        VaslApi.Member.TERRAIN_NAME));
    if (ground != null && (ground.endsWith(" Road") || WOODS.contains(ground))) {
      appendPixels(sb, vmap, grid, hex, shift);
    }
    sb.append('}');
  }

  /** The woods types; a hex whose centre is one of them or a road gets its pixels surveyed (Python decides). */
  private static final java.util.Set<String> WOODS =
      new java.util.HashSet<>(java.util.Arrays.asList("Woods", "Forest", "Pine Woods", "Light Woods"));

  /**
   * {@code ,"pixels":{"Terrain name":count,…}}: VASL's terrain ({@code getGridTerrain(x, y)}) over the hex's
   * pixels, those nearer its centre than any other hex's (the pixel set of the project's board-archive reader,
   * with its float distances and its ties: the hex of the lower column, then lower row, wins), so Python can tell a
   * road through woods (B25.1's Woods-Road) as it does from the archives. Nothing if VASL's map lacks the methods.
   * {@code fast}: what {@link #terrainGrid} read once per map; {@code shift}: where VASL's pixels of the hex's board
   * lie against its hex grid and whether they are turned ({@link #cropShift}), or null.
   */
  private static void appendPixels(StringBuilder sb, Object vmap, Object[] fast, Object hex, double[] shift)
      throws ReflectiveOperationException {
    Method perPixel = (Method) fast[8];
    Object gw = fast[2];
    Object gh = fast[3];
    double[] at = centre(fast, hex);
    if ((perPixel == null && fast[0] == null) || !(gw instanceof Number) || !(gh instanceof Number) || at == null) {
      return;
    }
    double w = ((Number) fast[4]).doubleValue();
    double h = ((Number) fast[5]).doubleValue();
    double cx = at[0] + (shift == null ? 0.0 : shift[0]);
    double cy = at[1] + (shift == null ? 0.0 : shift[1]);
    // the six neighbouring centres; those of a lower column or of the row above win a tie
    double[][] near = {{cx - w, cy - h / 2}, {cx - w, cy + h / 2}, {cx, cy - h}, {cx, cy + h},
                       {cx + w, cy - h / 2}, {cx + w, cy + h / 2}};
    boolean turned = shift != null && shift[2] != 0.0;
    // on a reversed board the neighbours the archive reader favours lie right and below
    boolean[] before = {!turned, !turned, !turned, turned, turned, turned};
    // the cell reaches (w² + h²/4) / 2w (37.4 px on a geomorphic board) left and right, h/2 up and down
    double reach = (w * w + h * h / 4) / (2 * w) + 1;
    int x0 = Math.max(0, (int) Math.floor(cx - reach));
    int x1 = Math.min(((Number) gw).intValue() - 1, (int) Math.ceil(cx + reach));
    int y0 = Math.max(0, (int) Math.floor(cy - h / 2 - 1));
    int y1 = Math.min(((Number) gh).intValue() - 1, (int) Math.ceil(cy + h / 2 + 1));
    // nearer the centre than half the nearest neighbour's distance, less a margin: surely this hex's (no tie)
    double half = Math.min(h, Math.sqrt(w * w + h * h / 4)) / 2 - 0.75;
    float inside = (float) (half * half);
    java.util.Map<Object, int[]> counts = new java.util.IdentityHashMap<>();
    char[][] codes = (char[][]) fast[0];
    Object[] list = (Object[]) fast[1];
    int[] byCode = new int[list == null ? 0 : list.length];
    // each pixel column of the cell is one run of pixels (the cell is convex; distances of whole pixels to
    // quarter-pixel centres are exact in float): its core within the inscribed circle, then walked out to its ends
    for (int x = x0; x <= x1; x++) {
      double dx = x - cx;
      int lo;
      int hi;
      if (inside - dx * dx > 0) {
        double reachY = Math.sqrt(inside - dx * dx);
        lo = Math.max(y0, (int) Math.ceil(cy - reachY));
        hi = Math.min(y1, (int) Math.floor(cy + reachY));
        while (lo <= hi && dist(x, lo, cx, cy) >= inside) {
          lo++;
        }
        while (hi >= lo && dist(x, hi, cx, cy) >= inside) {
          hi--;
        }
      }
      else {
        lo = 1;
        hi = 0;
      }
      if (lo > hi) {  // no core: the run, if any, holds a pixel next to the centre's height
        int seed = (int) Math.floor(cy);
        if (seed >= y0 && seed <= y1 && mine(x, seed, cx, cy, inside, near, before)) {
          lo = seed;
        }
        else if (seed + 1 >= y0 && seed + 1 <= y1 && mine(x, seed + 1, cx, cy, inside, near, before)) {
          lo = seed + 1;
        }
        else {
          continue;
        }
        hi = lo;
      }
      while (lo - 1 >= y0 && mine(x, lo - 1, cx, cy, inside, near, before)) {
        lo--;
      }
      while (hi + 1 <= y1 && mine(x, hi + 1, cx, cy, inside, near, before)) {
        hi++;
      }
      if (codes != null) {
        if (x < codes.length) {
          char[] column = codes[x];
          int n = byCode.length;
          for (int y = lo, end = Math.min(hi, column.length - 1); y <= end; y++) {
            char code = column[y];
            if (code < n) {
              byCode[code]++;
            }
          }
        }
        continue;
      }
      for (int y = lo; y <= hi; y++) {
        Object t = perPixel.invoke(vmap, x, y);
        if (t != null) {
          counts.computeIfAbsent(t, k -> new int[1])[0]++;
        }
      }
    }
    for (int code = 0; code < byCode.length; code++) {
      if (byCode[code] > 0 && list[code] != null) {
        counts.computeIfAbsent(list[code], k -> new int[1])[0] += byCode[code];
      }
    }
    java.util.Map<String, Integer> byName = new java.util.LinkedHashMap<>();
    for (java.util.Map.Entry<Object, int[]> e : counts.entrySet()) {
      String name = Snapshot.str(VaslApi.tryCall(e.getKey(), VaslApi.Member.TERRAIN_NAME));
      byName.merge(name == null ? "" : name, e.getValue()[0], Integer::sum);
    }
    sb.append(",\"pixels\":{");
    boolean first = true;
    for (java.util.Map.Entry<String, Integer> e : byName.entrySet()) {
      if (!first) {
        sb.append(',');
      }
      first = false;
      Json.quote(sb, e.getKey());
      sb.append(':').append(e.getValue());
    }
    sb.append('}');
  }

  /**
   * The hex's centre in VASL's merged grid as {@code Map.getHexCenterPoint} computes it ({@code Hex.getHexCenter()}
   * truncates it to ints, and pulls it in at the grid's edge: then the truncated point), or null where VASL's map or
   * hex lacks the methods.
   */
  private static double[] centre(Object[] fast, Object hex) {
    Object hw = fast[4];
    Object hh = fast[5];
    Object centre = VaslApi.tryCall(hex, VaslApi.Member.HEX_CENTER);
    Object c = VaslApi.tryCall(hex, VaslApi.Member.HEX_COLUMN);
    Object r = VaslApi.tryCall(hex, VaslApi.Member.HEX_ROW);
    if (!(hw instanceof Number) || !(hh instanceof Number) || !(centre instanceof Point) || !(c instanceof Number)
        || !(r instanceof Number)) {
      return null;
    }
    double w = ((Number) hw).doubleValue();
    double h = ((Number) hh).doubleValue();
    int col = ((Number) c).intValue();
    int row = ((Number) r).intValue();
    Point p = (Point) centre;
    Object a1x = fast[6];
    Object a1y = fast[7];
    if (a1x instanceof Number && a1y instanceof Number) {
      double ax = ((Number) a1x).doubleValue();
      double ay = ((Number) a1y).doubleValue();
      double x = (ax < 0.0 ? 0.0 : ax) + w * col;
      double y = ay == 0.0 ? 32.25 + h * row - h / 2.0 * (col % 2 == 0 ? 1 : 0)
          : (ay < 0.0 ? h / 2.0 : ay) + h * row - h / 2.0 * (col % 2);
      if ((int) x == p.x && (int) y == p.y) {
        return new double[] {x, y};
      }
    }
    return new double[] {p.x, p.y};
  }

  /**
   * How far VASL's merged pixel grid holds a board's hexes from where the grid's hexes are, and whether its pixels
   * are turned ({dx, dy, 1 if reversed}); null where VASL's board or map lacks the methods. Which arithmetic follows
   * from what VASL's map offers: 6.7.x's map building ({@code flipTerrainAndElevationGrids}) or the 2020 one.
   * {@code bx, by}: the board's corner in VASL's pixels.
   */
  static double[] cropShift(Object vmap, Object[] fast, Board b, int bx, int by) {
    try {
      return VaslApi.offers(vmap, VaslApi.Member.MAP_FLIP_GRIDS) ? cropShift67(vmap, fast, b, bx, by)
          : cropShift2020(vmap, fast, b, bx, by);
    }
    catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /**
   * VASL 6.7.x ({@code BoardArchive.addLOSDatatoVASLMap}): the map-wide grid's hexes stay where the map-wide
   * {@code Map} put them (its own A1 centre) and take the board's names from the board's first hex on
   * ({@code gridToHex} of the board's corner); the board's LOSData pixel (x, y) goes to the board's corner plus
   * (x − crop x, y − crop y), and a reversed board's pixels are then turned within the board's rectangle
   * ({@code Map.flipTerrainAndElevationGrids}: x → corner + width − 1 − (x − corner)). So a hex's pixels lie off its
   * grid place by what its whole-board centre, so moved, lacks of the grid hex's centre.
   */
  private static double[] cropShift67(Object vmap, Object[] fast, Board b, int bx, int by)
      throws ReflectiveOperationException {
    Object bounds = VaslApi.tryCall(b, VaslApi.Member.BOARD_CROP);
    Object a1x = VaslApi.tryCall(b, VaslApi.Member.BOARD_A1_X);
    Object a1y = VaslApi.tryCall(b, VaslApi.Member.BOARD_A1_Y);
    if (!(a1x instanceof Number) || !(a1y instanceof Number) || !(fast[4] instanceof Number)
        || !(fast[5] instanceof Number)) {
      return null;
    }
    double ax = ((Number) a1x).doubleValue();
    double ay = ((Number) a1y).doubleValue();
    double w = ((Number) fast[4]).doubleValue();
    double h = ((Number) fast[5]).doubleValue();
    Rectangle crop = bounds instanceof Rectangle ? (Rectangle) bounds : new Rectangle(0, 0, -1, -1);
    Object first = VaslApi.call(vmap, VaslApi.Member.MAP_GRID_TO_HEX, bx, by);
    double[] there = first == null ? null : centre(fast, first);
    int[] cr = wholeBoardHex(Snapshot.str(VaslApi.tryCall(first, VaslApi.Member.HEX_NAME)), ax == -901.0, ay, h);
    if (there == null || cr == null) {
      return null;
    }
    double x = (ax < 0.0 ? 0.0 : ax) + w * cr[0];
    double y = ay == 0.0 ? h / 2.0 + h * cr[1] - h / 2.0 * (cr[0] % 2 == 0 ? 1 : 0)
        : (ay < 0.0 ? h / 2.0 : ay) + h * cr[1] - h / 2.0 * (cr[0] % 2);
    double tx = x - Math.max(0, crop.x);
    double ty = y - Math.max(0, crop.y);
    if (b.isReversed()) {
      Rectangle r = b.bounds();
      tx = r.width - 1 - tx;
      ty = r.height - 1 - ty;
    }
    double dx = bx + tx - there[0];
    double dy = by + ty - there[1];
    if (Math.abs(dx) > 0.75 * w || Math.abs(dy) > 0.75 * h) {
      // about a hex or more: not the arithmetic above. A lone board: a crop 6.7.x's grid starts at, its pixels at
      // the grid's places. On a map of several boards, a board VASL names a row or column off its pixels (the board
      // below a row crop, named from gridToHex of its corner): each hex is surveyed at its own place, the board's
      // pixels lying off the grid by the fraction of a hex left over
      if (b.getMap() == null || b.getMap().getBoardCount() < 2) {
        return null;
      }
      dx -= Math.round(dx / w) * w;
      dy -= Math.round(dy / h) * h;
    }
    return new double[] {dx, dy, b.isReversed() ? 1.0 : 0.0};
  }

  /**
   * The VASL of 2020: {@code Map.crop} copies the board's pixels from the crop's corner ({@code gridadj =
   * upperLeft.x}) but its hexes from the hex under that corner, and {@code insertMap} puts that first hex's pixels at
   * ({@code left}, {@code upper}) from that hex's place in the merged grid: a crop that does not start on a hex
   * centre leaves the pixels off the hexes (by up to half a hex; elsewhere by the half pixel {@code insertMap}
   * truncates). {@code ASLMap} passes the board's corner one pixel lower to {@code gridToHex}.
   */
  private static double[] cropShift2020(Object vmap, Object[] fast, Board b, int bx, int by)
      throws ReflectiveOperationException {
    Object bounds = VaslApi.tryCall(b, VaslApi.Member.BOARD_CROP);
    Object whole = VaslApi.tryCall(b, VaslApi.Member.BOARD_UNCROPPED);
    Object a1x = VaslApi.tryCall(b, VaslApi.Member.BOARD_A1_X);
    Object a1y = VaslApi.tryCall(b, VaslApi.Member.BOARD_A1_Y);
    if (!(bounds instanceof Rectangle) || !(whole instanceof java.awt.Dimension) || !(a1x instanceof Number)
        || !(a1y instanceof Number) || !(fast[4] instanceof Number) || !(fast[5] instanceof Number)) {
      return null;
    }
    Rectangle crop = new Rectangle((Rectangle) bounds);
    double ax = ((Number) a1x).doubleValue();
    double ay = ((Number) a1y).doubleValue();
    if ((ax != 0.0 && ax != -901.0) || Boolean.TRUE.equals(VaslApi.field(b, VaslApi.Member.BOARD_NEAREST_FULL_ROW))) {
      return null;  // VASL's "Offset" crop (boards without LOS data), or its "FullHex" one (the picker's button)
    }
    java.awt.Dimension size = (java.awt.Dimension) whole;
    crop.width = crop.width == -1 ? size.width : crop.width;
    crop.height = crop.height == -1 ? size.height : crop.height;
    double w = ((Number) fast[4]).doubleValue();
    double h = ((Number) fast[5]).doubleValue();
    Object first = VaslApi.call(vmap, VaslApi.Member.MAP_GRID_TO_HEX, bx, by + 1);
    double[] there = first == null ? null : centre(fast, first);
    Object c = VaslApi.tryCall(first, VaslApi.Member.HEX_COLUMN);
    Object r = VaslApi.tryCall(first, VaslApi.Member.HEX_ROW);
    Object los = VaslApi.tryCall(VaslApi.tryCall(first, VaslApi.Member.HEX_CENTER_LOCATION),
        VaslApi.Member.LOCATION_LOS_POINT);
    // the board's first hex after the crop (and the turn) is the whole board's hex of that name
    int[] cr = wholeBoardHex(Snapshot.str(VaslApi.tryCall(first, VaslApi.Member.HEX_NAME)), ax == -901.0, ay, h);
    if (there == null || !(c instanceof Number) || !(r instanceof Number) || !(los instanceof Point) || cr == null) {
      return null;
    }
    double x = w * cr[0];
    double y = ay == 0.0 ? 32.25 + h * cr[1] - h / 2.0 * (cr[0] % 2 == 0 ? 1 : 0)
        : (ay < 0.0 ? h / 2.0 : ay) + h * cr[1] - h / 2.0 * (cr[0] % 2);
    int losY = (int) y == size.height || (int) y == size.height + 1 ? size.height - 1 : (int) y;
    double tx = x - crop.x;
    double ty = y - crop.y;
    int top = losY;
    if (b.isReversed()) {  // Map.flip: the cropped pixels turned; Hex.flip turns the points in the whole board's
      tx = crop.width - 1 - tx;
      ty = crop.height - 1 - ty;
      top = size.height - losY - 1;
    }
    int left = ((Number) c).intValue() == 0 ? 0 : ((Point) los).x;
    int upper = ((Number) r).intValue() == 0 ? 0 : Math.max(0, ((Point) los).y - top);
    double dx = left + tx - there[0];
    double dy = upper + ty - there[1];
    if (Math.abs(dx) > w || Math.abs(dy) > h) {
      return null;  // more than a hex: not the arithmetic above (a board VASL names or places otherwise)
    }
    return new double[] {dx, dy, b.isReversed() ? 1.0 : 0.0};
  }

  /**
   * The whole board's column and row of a hex name, as VASL's {@code Map.getGEOHexName} names them (A–Z, AA…; on
   * the "a"/"b" half boards Q–Z then AA…), or null.
   */
  static int[] wholeBoardHex(String name, boolean ab, double a1y, double h) {
    if (name == null) {
      return null;
    }
    int i = 0;
    while (i < name.length() && Character.isLetter(name.charAt(i))) {
      i++;
    }
    if (i == 0 || i == name.length()) {
      return null;
    }
    char letter = name.charAt(0);
    for (int k = 1; k < i; k++) {
      if (name.charAt(k) != letter) {
        return null;
      }
    }
    int col;
    if (ab) {
      col = i == 1 ? letter - 'Q' : 10 + letter - 'A';
      if (i > 2 || col < 0 || (i == 1 && col >= 10)) {
        return null;
      }
    }
    else {
      col = letter - 'A' + 26 * (i - 1);
    }
    int number;
    try {
      number = Integer.parseInt(name.substring(i));
    }
    catch (NumberFormatException e) {
      return null;
    }
    int rowOffset = a1y < 0.0 ? (int) (-a1y / h) + 1 : 0;
    return new int[] {col, number - rowOffset - (col % 2 == 0 ? 1 : 0)};
  }

  /**
   * What the pixel survey needs of VASL's map, read once per map: [0] its pixel codes ({@code terrainGrid[x][y]})
   * and [1] their terrain ({@code terrainList}), the data {@code getGridTerrain(x, y)} returns, read without a
   * reflective call per pixel (which made the first press of a 10-board game 2 s slower), or nulls where the map
   * has no such fields (then [8] {@code getGridTerrain}); [2–7] {@code getGridWidth/Height}, {@code
   * getHexWidth/Height}, {@code getA1CenterX/Y} (null where missing).
   */
  private static Object[] terrainGrid(Object vmap) {
    Object[] out = {null, null, VaslApi.tryCall(vmap, VaslApi.Member.MAP_GRID_WIDTH),
                    VaslApi.tryCall(vmap, VaslApi.Member.MAP_GRID_HEIGHT),
                    VaslApi.tryCall(vmap, VaslApi.Member.MAP_HEX_WIDTH),
                    VaslApi.tryCall(vmap, VaslApi.Member.MAP_HEX_HEIGHT),
                    VaslApi.tryCall(vmap, VaslApi.Member.MAP_A1_X), VaslApi.tryCall(vmap, VaslApi.Member.MAP_A1_Y),
                    VaslApi.method(vmap, VaslApi.Member.MAP_GRID_TERRAIN, int.class, int.class)};
    try {
      Object codes = VaslApi.field(vmap, VaslApi.Member.MAP_TERRAIN_GRID);
      Object list = VaslApi.field(vmap, VaslApi.Member.MAP_TERRAIN_LIST);
      if (codes instanceof char[][] && list instanceof Object[]) {
        out[0] = codes;
        out[1] = list;
      }
    }
    catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      // not VASL's fields: per pixel through getGridTerrain
    }
    if (out[0] == null && out[8] == null) {
      VaslApi.absent(VaslApi.Member.MAP_GRID_TERRAIN);
    }
    return out;
  }

  /** VASL's version: the module's (VASL's own version number, e.g. 6.7.3), or null. */
  static String vaslVersion() {
    try {
      return VASSAL.build.GameModule.getGameModule().getGameVersion();
    }
    catch (RuntimeException e) {
      return null;
    }
  }

  /** Whether pixel (x, y) is nearer (cx, cy) than the neighbouring centres (ties as the archive reader breaks them). */
  private static boolean mine(int x, int y, double cx, double cy, float inside, double[][] near, boolean[] before) {
    float d = dist(x, y, cx, cy);
    if (d < inside) {
      return true;
    }
    for (int k = 0; k < near.length; k++) {
      float e = dist(x, y, near[k][0], near[k][1]);
      if (before[k] ? d >= e : d > e) {
        return false;
      }
    }
    return true;
  }

  /** The squared distance as the archive reader computes it: each square in double, their sum in float. */
  private static float dist(int x, int y, double cx, double cy) {
    double dx = x - cx;
    double dy = y - cy;
    return (float) (dx * dx) + (float) (dy * dy);
  }
}
