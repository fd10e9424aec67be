package aslfire;

import java.awt.Point;
import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.List;

import VASSAL.build.GameModule;
import VASSAL.build.module.Map;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.counters.BasicPiece;
import VASSAL.counters.Decorator;
import VASSAL.counters.Embellishment;
import VASSAL.counters.FreeRotator;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Properties;
import VASSAL.counters.Stack;

/**
 * The game as one JSON string: module, maps, boards and every piece the local
 * player may see. Pieces hidden from or obscured to this player are never
 * exported. Runs on the Swing thread.
 */
final class Snapshot {
  private Snapshot() {
  }

  /** Every visible top-level piece (stacks and decks expanded), map by map. */
  static List<GamePiece> visiblePieces(Map map) {
    List<GamePiece> out = new ArrayList<>();
    for (GamePiece p : allPieces(map)) {
      if (isVisible(p)) {
        out.add(p);
      }
    }
    return out;
  }

  /** Every top-level piece (stacks and decks expanded), visible or not. */
  static List<GamePiece> allPieces(Map map) {
    List<GamePiece> out = new ArrayList<>();
    for (GamePiece p : map.getAllPieces()) {
      if (p instanceof Stack) {
        out.addAll(((Stack) p).asList());
      }
      else {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * Who looks: whether a piece is hidden or masked to this player follows from its state (who hid or concealed it)
   * and the player's id and side, so a piece's visibility is kept with its JSON under a key that holds all three.
   */
  static String viewer() {
    return GameModule.getActiveUserId() + '|' + VASSAL.build.module.PlayerRoster.getMySide();
  }

  static boolean isVisible(GamePiece p) {
    return !Boolean.TRUE.equals(p.getProperty(Properties.INVISIBLE_TO_ME))
        && !Boolean.TRUE.equals(p.getProperty(Properties.OBSCURED_TO_ME))
        // concealed or hidden by anyone (this player included): never leaves VASSAL (A12, HIP)
        && p.getProperty(Properties.OBSCURED_BY) == null
        && p.getProperty(Properties.HIDDEN_BY) == null;
  }

  /**
   * Each piece's JSON by the piece, with what it was made from (state, map, boards, layer selection, viewer): most
   * pieces do not change between two presses, and reading a counter's name and properties through its prototypes is
   * what costs (the four visibility properties too: each falls through the traits to the map's and module's
   * properties). The JSON is null for a piece hidden from this viewer. Weak keys: a deleted piece's entry goes. Only
   * used on the Swing thread.
   */
  private static final java.util.Map<GamePiece, Known> PIECE_JSON = new java.util.WeakHashMap<>();

  /** A piece's JSON (null: not shown to this viewer) and what it was made from. */
  private static final class Known {
    final int state;
    final String made;
    final String json;

    Known(int state, String made, String json) {
      this.state = state;
      this.made = made;
      this.json = json;
    }
  }

  /** What a piece's board and location names depend on: the map and its boards' names, places and sides. */
  static String boardsSignature(Map map) {
    StringBuilder k = new StringBuilder(map.getId()).append('|');
    for (Board b : map.getBoards()) {
      Rectangle r = b.bounds();
      k.append(b.getName()).append(b.isReversed() ? "/r@" : "@").append(r.x).append(',').append(r.y).append(';');
    }
    return Integer.toHexString(k.toString().hashCode()) + '|';
  }

  /** A short fingerprint of a piece's whole state (position, layers, hidden…): changes when the piece does. */
  static String revision(GamePiece p) {
    return Integer.toHexString(stateHash(p));
  }

  /**
   * A hash of a piece's whole state: each trait's own state and its basic piece's, in order. The same information as
   * {@code getState()}, without building that string: a trait's state there holds every inner trait's escaped once
   * per trait around it, which for VASL's counters (a score of traits) is most of a snapshot's time.
   */
  static int stateHash(GamePiece p) {
    int h = 1;
    GamePiece d = p;
    for (; d instanceof Decorator; d = ((Decorator) d).getInner()) {
      h = 31 * h + java.util.Objects.hashCode(((Decorator) d).myGetState());
    }
    return 31 * h + java.util.Objects.hashCode(d.getState());
  }

  static String revision(int stateHash) {
    return Integer.toHexString(stateHash);
  }

  static String str(Object o) {
    return o == null ? null : o.toString();
  }

  static String build(FireBridge bridge, boolean withTerrain) {
    return build(bridge, withTerrain, null);
  }

  /**
   * @param layersFor if not null, export Embellishment layers only for pieces whose gpid or basic
   *     name is in this set (the rest get an empty list): most pieces' layers are not needed.
   */
  static String build(FireBridge bridge, boolean withTerrain, java.util.Set<String> layersFor) {
    return build(bridge, withTerrain, layersFor, null);
  }

  /**
   * @param knownTerrain the terrain key ({@code maps[].terrain_key}) whose terrain the caller already has: that map's
   *     terrain is then sent as {@code {"key": …, "same": true}} without its hexes (boards unchanged).
   */
  static String build(FireBridge bridge, boolean withTerrain, java.util.Set<String> layersFor, String knownTerrain) {
    return build(bridge, withTerrain, layersFor, knownTerrain, -1L);
  }

  /**
   * What the last {@code since} snapshot sent, for the next one to send only what changed: each visible piece's JSON
   * by its VASSAL id, in the order sent, under a generation number. Forgotten when a game is opened or closed
   * ({@link #forgetSent}); only used on the Swing thread.
   */
  private static final class Sent {
    long generation;
    String scope;
    String[] ids = new String[0];
    String[] json = new String[0];
  }

  private static Sent sent;
  private static long generations;
  /** A snapshot was built since the game was opened: most pieces' JSON is kept ({@link #prepare}). */
  private static volatile boolean built;

  /** A game was opened or closed: the next snapshot is sent whole (piece ids may be reused by another game). */
  static void forgetSent() {
    sent = null;
    built = false;
  }

  /**
   * @param since {@code -1}: every visible piece (no generation); else the generation of the caller's pieces: if it
   *     is the last one sent (same layer selection and viewer), only the pieces added or changed since, the ids of
   *     those removed or hidden since ({@code "removed"}) and, if the pieces' order changed, every id in order
   *     ({@code "order"}); anything else (Undo is not: what was sent is compared, not what happened) gets them all.
   *     Both carry {@code "generation"}, and a delta {@code "since"}.
   */
  static String build(FireBridge bridge, boolean withTerrain, java.util.Set<String> layersFor, String knownTerrain,
                      long since) {
    long t0 = System.nanoTime();
    GameModule gm = GameModule.getGameModule();
    StringBuilder sb = new StringBuilder(1 << 16);
    sb.append("{\"module\":{\"name\":");
    Json.quote(sb, gm.getGameName());
    sb.append(",\"version\":");
    Json.quote(sb, gm.getGameVersion());
    sb.append(",\"vassal\":");
    Json.quote(sb, VASSAL.Info.getVersion());
    sb.append("},\"bridge\":");
    Json.quote(sb, FireBridge.VERSION);
    sb.append(",\"game\":");
    bridge.appendGameStatus(sb);
    sb.append(",\"turn\":[");
    boolean firstT = true;
    for (VASSAL.build.module.turn.TurnTracker t
        : gm.getAllDescendantComponentsOf(VASSAL.build.module.turn.TurnTracker.class)) {
      if (!firstT) {
        sb.append(',');
      }
      firstT = false;
      sb.append("{\"name\":");
      Json.quote(sb, t.getConfigureName());
      sb.append(",\"state\":");
      Json.quote(sb, t.getState());
      sb.append('}');
    }
    sb.append(']');
    sb.append(",\"maps\":[");
    boolean firstMap = true;
    for (Map map : Map.getMapList()) {
      if (!firstMap) {
        sb.append(',');
      }
      firstMap = false;
      sb.append("{\"id\":");
      Json.quote(sb, map.getId());
      sb.append(",\"name\":");
      Json.quote(sb, map.getMapName());
      sb.append(",\"boards\":[");
      boolean fb = true;
      for (Board b : map.getBoards()) {
        if (!fb) {
          sb.append(',');
        }
        fb = false;
        Rectangle r = b.bounds();
        sb.append("{\"name\":");
        Json.quote(sb, b.getName());
        sb.append(",\"x\":").append(r.x).append(",\"y\":").append(r.y)
          .append(",\"width\":").append(r.width).append(",\"height\":").append(r.height)
          .append(",\"reversed\":").append(b.isReversed());
        String grid = b.getGrid() == null ? null : b.getGrid().getClass().getSimpleName();
        sb.append(",\"grid\":");
        Json.quote(sb, grid);
        sb.append(",\"vasl\":");
        VaslBoards.append(sb, b);
        sb.append('}');
      }
      Object vmap = VaslTerrain.model(map);
      String key = VaslTerrain.key(map, vmap);
      sb.append("],\"terrain_key\":");
      Json.quote(sb, key);
      sb.append(",\"vasl_model\":");
      Json.quote(sb, VaslTerrain.modelId(vmap));
      sb.append(",\"terrain\":");
      if (withTerrain) {
        VaslTerrain.append(sb, map, vmap, key, knownTerrain);
      }
      else {
        sb.append("null");
      }
      sb.append('}');
    }
    sb.append("],\"pieces\":[");
    java.util.Map<Point, String> names = new java.util.HashMap<>();
    String scope = scope(layersFor);
    Sent last = since >= 0 && sent != null && sent.generation == since && scope.equals(sent.scope) ? sent : null;
    Sent now = since >= 0 ? new Sent() : null;
    List<String> ids = new ArrayList<>(4096);
    List<String> jsons = new ArrayList<>(4096);
    for (Map map : Map.getMapList()) {
      names.clear();
      String made = boardsSignature(map) + scope;
      for (GamePiece p : allPieces(map)) {
        String json = pieceJson(map, p, made, names, layersFor);
        if (json != null) {  // hidden from or masked to this player: never exported
          ids.add(p.getId());
          jsons.add(json);
        }
      }
    }
    String[] idsNow = ids.toArray(new String[0]);
    String[] jsonNow = jsons.toArray(new String[0]);
    appendPieces(sb, last, idsNow, jsonNow);
    if (now != null) {
      now.generation = ++generations;
      now.scope = scope;
      now.ids = idsNow;
      now.json = jsonNow;
      sb.append(",\"generation\":").append(now.generation);
      if (last != null) {
        sb.append(",\"since\":").append(last.generation);
      }
      sent = now;
    }
    built = true;
    // how long building this took on VASSAL's Swing thread (for bench/bench_bridge.py)
    sb.append(",\"build_ms\":").append((System.nanoTime() - t0) / 1000000)
      .append(",\"build_us\":").append((System.nanoTime() - t0) / 1000).append('}');
    return sb.toString();
  }

  /** What the pieces' JSON depends on besides each piece and its boards: the layer selection and the viewer. */
  private static String scope(java.util.Set<String> layersFor) {
    String only = layersFor == null ? "*" : Integer.toHexString(new java.util.TreeSet<>(layersFor).hashCode());
    return only + '|' + viewer();
  }

  /**
   * Makes the JSON of every piece not made yet (the first snapshot since a game was opened), in slices of at most
   * {@link VaslTerrain#SLICE_MS} of the Swing thread's time, so that the snapshot itself then finds it made: a game's
   * first snapshot (3,000 pieces, the JIT cold) would otherwise hold the Swing thread several hundred ms. Runs off
   * the Swing thread; a piece changed or added between two slices is made again, or for the first time, by the
   * snapshot (each piece's JSON is kept with the state it was made from).
   */
  static void prepare(java.util.Set<String> layersFor) throws Edt.EdtFailure {
    if (built) {
      return;  // no call onto the Swing thread at a later press
    }
    final List<Object[]> todo = Edt.call(() -> {
      List<Object[]> out = new ArrayList<>();
      GameModule gm = GameModule.getGameModule();
      if (built || gm == null || !gm.getGameState().isGameStarted()) {
        return out;  // a snapshot was built since the game opened: most pieces' JSON is kept
      }
      String scope = scope(layersFor);
      for (Map map : Map.getMapList()) {
        out.add(new Object[] {map, boardsSignature(map) + scope, allPieces(map)});
      }
      return out;
    }, FireBridge.EDT_TIMEOUT_MS, "snapshot");
    final int[] at = {0, 0};  // the map, the piece
    boolean done = todo.isEmpty();
    while (!done) {
      done = Edt.call(() -> {
        long deadline = System.nanoTime() + VaslTerrain.SLICE_MS * 1000000L;
        java.util.Map<Point, String> names = new java.util.HashMap<>();
        for (; at[0] < todo.size(); at[0]++, at[1] = 0, names.clear()) {
          Map map = (Map) todo.get(at[0])[0];
          String made = (String) todo.get(at[0])[1];
          @SuppressWarnings("unchecked")
          List<GamePiece> pieces = (List<GamePiece>) todo.get(at[0])[2];
          while (at[1] < pieces.size()) {
            GamePiece p = pieces.get(at[1]++);
            if (p.getMap() == map) {  // still on the map
              pieceJson(map, p, made, names, layersFor);
            }
            if (System.nanoTime() >= deadline) {
              return false;
            }
          }
        }
        return true;
      }, FireBridge.EDT_TIMEOUT_MS, "snapshot");
    }
  }

  /**
   * A piece's JSON, null for one not shown to this viewer: the one made last time if its state, the board layout,
   * the layer selection and the viewer ({@code made}) are unchanged, else made again and kept.
   */
  private static String pieceJson(Map map, GamePiece p, String made, java.util.Map<Point, String> names,
                                  java.util.Set<String> layersFor) {
    int state = stateHash(p);
    Known known = PIECE_JSON.get(p);
    if (known != null && known.state == state && known.made.equals(made)) {
      return known.json;
    }
    String json = null;
    if (isVisible(p)) {
      StringBuilder one = new StringBuilder(512);
      appendPiece(one, map, p, names, layersFor, state);
      json = one.toString();
    }
    PIECE_JSON.put(p, new Known(state, made, json));
    return json;
  }

  /**
   * The pieces' JSON, the array left open by the caller closed: all of them, or, since {@code last}, those changed,
   * the ids removed and, if the order changed, the ids in order.
   */
  private static void appendPieces(StringBuilder sb, Sent last, String[] idsNow, String[] jsonNow) {
    if (last == null) {
      appendAll(sb, jsonNow);
    }
    else if (java.util.Arrays.equals(idsNow, last.ids)) {
      appendChanged(sb, last, jsonNow);
    }
    else {
      appendDelta(sb, last, idsNow, jsonNow);
    }
  }

  private static void appendAll(StringBuilder sb, String[] jsonNow) {
    boolean first = true;
    for (String json : jsonNow) {
      first = appendJson(sb, first, json);
    }
    sb.append(']');
  }

  /** The usual later press: the same pieces in the same order as {@code last}, a few of them changed. */
  private static void appendChanged(StringBuilder sb, Sent last, String[] jsonNow) {
    boolean first = true;
    for (int i = 0; i < jsonNow.length; i++) {
      if (jsonNow[i] != last.json[i] && !jsonNow[i].equals(last.json[i])) {
        first = appendJson(sb, first, jsonNow[i]);
      }
    }
    sb.append("],\"removed\":[]");
  }

  /** Pieces added, removed or reordered since {@code last}. */
  private static void appendDelta(StringBuilder sb, Sent last, String[] idsNow, String[] jsonNow) {
    boolean first = true;
    java.util.Map<String, String> before = new java.util.HashMap<>(last.ids.length * 2);
    for (int i = 0; i < last.ids.length; i++) {
      before.put(last.ids[i], last.json[i]);
    }
    List<String> now = java.util.Arrays.asList(idsNow);
    java.util.Set<String> present = new java.util.HashSet<>(now);
    for (int i = 0; i < idsNow.length; i++) {
      String had = before.get(idsNow[i]);
      if (had == null || !had.equals(jsonNow[i])) {
        first = appendJson(sb, first, jsonNow[i]);
      }
    }
    sb.append("],\"removed\":[");
    boolean fr = true;
    for (String id : last.ids) {
      if (!present.contains(id)) {
        if (!fr) {
          sb.append(',');
        }
        fr = false;
        Json.quote(sb, id);
      }
    }
    sb.append(']');
    // the caller keeps its pieces' order, drops the removed ones and adds the new ones at the end
    List<String> kept = new ArrayList<>(idsNow.length);
    for (String id : last.ids) {
      if (present.contains(id)) {
        kept.add(id);
      }
    }
    for (String id : idsNow) {
      if (!before.containsKey(id)) {
        kept.add(id);
      }
    }
    if (!kept.equals(now)) {
      sb.append(",\"order\":[");
      for (int i = 0; i < idsNow.length; i++) {
        if (i > 0) {
          sb.append(',');
        }
        Json.quote(sb, idsNow[i]);
      }
      sb.append(']');
    }
  }

  /** The board-local name of the hex at a map point (VASL's location names add the board on multi-board maps). */
  static String boardHex(Board b, Point pos) {
    if (b == null || b.getGrid() == null) {
      return null;
    }
    Rectangle r = b.bounds();
    try {
      return b.getGrid().locationName(b.localCoordinates(new Point(pos.x - r.x, pos.y - r.y)));
    }
    catch (RuntimeException e) {
      return null;
    }
  }

  private static boolean appendJson(StringBuilder sb, boolean first, String json) {
    if (!first) {
      sb.append(',');
    }
    sb.append(json);
    return false;
  }

  static void appendPiece(StringBuilder sb, Map map, GamePiece p, java.util.Map<Point, String> names,
                          java.util.Set<String> layersFor, int stateHash) {
    Point pos = p.getPosition();
    String gpid = str(p.getProperty(Properties.PIECE_ID));
    String basicName = str(p.getProperty(BasicPiece.BASIC_NAME));
    boolean withLayers = layersFor == null || layersFor.contains(gpid) || layersFor.contains(basicName);
    sb.append("{\"id\":");
    Json.quote(sb, p.getId());
    sb.append(",\"gpid\":");
    Json.quote(sb, gpid);
    sb.append(",\"name\":");
    Json.quote(sb, p.getName());
    sb.append(",\"basic_name\":");
    Json.quote(sb, basicName);
    sb.append(",\"map\":");
    Json.quote(sb, map.getMapName());
    Board b = map.findBoard(pos);
    sb.append(",\"board\":");
    Json.quote(sb, b == null ? null : b.getName());
    sb.append(",\"hex\":");
    Json.quote(sb, boardHex(b, pos));
    sb.append(",\"location\":");
    Json.quote(sb, names.computeIfAbsent(new Point(pos), map::locationName));
    sb.append(",\"x\":").append(pos.x).append(",\"y\":").append(pos.y);
    sb.append(",\"rev\":");
    Json.quote(sb, revision(stateHash));
    sb.append(",\"layers\":[");
    boolean first = true;
    for (GamePiece d = p; withLayers && d instanceof Decorator; d = ((Decorator) d).getInner()) {
      if (d instanceof Embellishment) {
        Embellishment e = (Embellishment) d;
        if (!first) {
          sb.append(',');
        }
        first = false;
        sb.append("{\"type\":");
        Json.quote(sb, e.myGetType());
        sb.append(",\"state\":");
        Json.quote(sb, e.myGetState());
        sb.append('}');
      }
    }
    sb.append("],\"facing\":");
    FreeRotator rot = (FreeRotator) Decorator.getDecorator(p, FreeRotator.class);
    if (rot == null) {
      sb.append("null");
    }
    else {
      sb.append(rot.getAngle());
    }
    sb.append('}');
  }
}
