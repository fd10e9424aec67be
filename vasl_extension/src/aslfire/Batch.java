package aslfire;

import java.awt.Point;
import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

import VASSAL.build.GameModule;
import VASSAL.build.module.Chatter;
import VASSAL.build.module.GlobalOptions;
import VASSAL.build.module.Map;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.build.widget.PieceSlot;
import VASSAL.command.ChangeTracker;
import VASSAL.command.Command;
import VASSAL.command.RemovePiece;
import VASSAL.counters.Decorator;
import VASSAL.counters.Embellishment;
import VASSAL.counters.GamePiece;
import VASSAL.counters.PieceCloner;
import VASSAL.counters.Properties;
import VASSAL.counters.Stack;

/**
 * Applies one batch of changes as ONE chained Command and ONE sendAndLog: every
 * player sees it, and one Undo reverts all of it. Checks everything first;
 * if anything fails while building, what was done is undone: never half-applied.
 * Runs on the Swing thread.
 */
final class Batch {
  private Batch() {
  }

  /** A refusal or a malformed batch; its message goes back to Python unchanged. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String msg) {
      super(msg);
    }
  }

  @SuppressWarnings("unchecked")
  static java.util.Map<String, Object> obj(Object o, String what) throws Refused {
    if (!(o instanceof java.util.Map)) {
      throw new Refused(what + " must be a JSON object");
    }
    return (java.util.Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(java.util.Map<String, Object> m, String key) throws Refused {
    Object o = m.get(key);
    if (o == null) {
      return new ArrayList<>();
    }
    if (!(o instanceof List)) {
      throw new Refused("batch field \"" + key + "\" must be a list");
    }
    return (List<Object>) o;
  }

  static String text(java.util.Map<String, Object> m, String key, String where) throws Refused {
    Object o = m.get(key);
    if (!(o instanceof String)) {
      throw new Refused(where + ": field \"" + key + "\" must be a string");
    }
    return (String) o;
  }

  /**
   * One roll's chat line: Python's text with {@code {dice}} replaced by the faces VASSAL rolled (the dice shown are
   * always VASSAL's own), or, for a text without it, "purpose = faces — text".
   */
  static String rollLine(FireBridge.Roll r, Object text) {
    String why = text instanceof java.util.Map ? String.valueOf(((java.util.Map<?, ?>) text).get("text"))
        : String.valueOf(text);
    if (why.contains("{dice}")) {
      return why.replace("{dice}", r.faces());
    }
    return r.purpose + " = " + r.faces() + (why.isEmpty() || "null".equals(why) ? "" : " — " + why);
  }

  /** The point of a hex (location name) on a map, checked to be on a board. */
  static Point pointOf(Map map, String boardName, String location) throws Refused {
    for (Board b : map.getBoards()) {
      if (boardName != null && !boardName.equals(b.getName())) {
        continue;
      }
      if (b.getGrid() == null) {
        continue;
      }
      Point p;
      try {
        p = b.getGrid().getLocation(location);
      }
      catch (Exception e) {
        continue;
      }
      if (p == null) {
        continue;
      }
      Rectangle r = b.bounds();
      p = b.globalCoordinates(new Point(p));  // a reversed (or VASL-cropped) board's hex is elsewhere on the map
      p = new Point(p.x + r.x, p.y + r.y);
      if (r.contains(p)) {
        return p;
      }
    }
    throw new Refused("hex " + location + " is not on " + (boardName == null ? "any board" : "board " + boardName)
        + " of map " + map.getMapName());
  }

  static Map mapNamed(String name) throws Refused {
    List<Map> maps = Map.getMapList();
    if (name == null) {
      if (maps.isEmpty()) {
        throw new Refused("the module has no map");
      }
      return maps.get(0);
    }
    for (Map m : maps) {
      if (name.equals(m.getMapName()) || name.equals(m.getId())) {
        return m;
      }
    }
    throw new Refused("no map named " + name);
  }

  static java.util.Map<String, PieceSlot> slotsByGpid() {
    java.util.Map<String, PieceSlot> out = new HashMap<>();
    for (PieceSlot s : GameModule.getGameModule().getAllDescendantComponentsOf(PieceSlot.class)) {
      out.putIfAbsent(s.getGpId(), s);
    }
    return out;
  }

  static Embellishment layer(GamePiece p, int index) {
    int i = 0;
    for (GamePiece d = p; d instanceof Decorator; d = ((Decorator) d).getInner()) {
      if (d instanceof Embellishment) {
        if (i == index) {
          return (Embellishment) d;
        }
        i++;
      }
    }
    return null;
  }

  /** The points of the map where a piece in no Stack lies (placeOrMerge would merge with it). */
  static java.util.Set<Point> loosePoints(Map map) {
    java.util.Set<Point> out = new java.util.HashSet<>();
    for (GamePiece p : map.getPieces()) {
      if (!(p instanceof Stack) && p.getPosition() != null) {
        out.add(new Point(p.getPosition()));
      }
    }
    return out;
  }

  /**
   * Appends {@code next} to the chain. The chain's root is a real command (never a NullCommand):
   * VASSAL encodes a chain from its root, and a root that encodes to nothing loses the whole
   * chain on its way to the other players.
   */
  static Command chain(Command c, Command next) {
    if (next == null) {
      return c;
    }
    return c == null ? next : c.append(next);
  }

  /**
   * The counters a batch places, cloned from their palette slots ahead of its apply, off the Swing thread's one hold:
   * by gpid, in the batch's order. A counter not cloned ahead (none, or a gpid the module lacks) is cloned at the
   * apply as before; one cloned and not placed (a refused batch) never entered the game.
   */
  static final class Ready {
    private final java.util.Map<String, java.util.ArrayDeque<GamePiece>> byGpid = new HashMap<>();

    GamePiece take(String gpid) {
      java.util.ArrayDeque<GamePiece> q = byGpid.get(gpid);
      return q == null ? null : q.poll();
    }
  }

  /**
   * Clones the counters the batch {@code json} places, in slices of at most {@link VaslTerrain#SLICE_MS} of the Swing
   * thread's time (each counter's prototypes expanded too, as its first paint would), so that the apply's one hold
   * is shorter. Runs off the Swing thread; a malformed batch clones nothing (the apply refuses it).
   */
  static Ready prepare(String json) throws Edt.EdtFailure {
    Ready ready = new Ready();
    final List<String> gpids = new ArrayList<>();
    try {
      for (Object o : list(obj(Json.parse(json), "the batch"), "place")) {
        if (o instanceof java.util.Map && ((java.util.Map<?, ?>) o).get("gpid") instanceof String) {
          gpids.add((String) ((java.util.Map<?, ?>) o).get("gpid"));
        }
      }
    }
    catch (Json.JsonError | Refused e) {
      return ready;
    }
    final int[] at = {0};
    final java.util.Map<String, PieceSlot> slots = new HashMap<>();
    while (at[0] < gpids.size()) {
      Edt.call(() -> {
        long deadline = System.nanoTime() + VaslTerrain.SLICE_MS * 1000000L;
        if (slots.isEmpty()) {
          slots.putAll(slotsByGpid());
        }
        while (at[0] < gpids.size()) {
          String gpid = gpids.get(at[0]++);
          PieceSlot slot = slots.get(gpid);
          if (slot != null) {
            try {
              GamePiece np = PieceCloner.getInstance().clonePiece(slot.getPiece());
              np.getShape();  // its prototypes expanded now, not at its first paint after the apply
              ready.byGpid.computeIfAbsent(gpid, k -> new java.util.ArrayDeque<>()).add(np);
            }
            catch (RuntimeException e) {
              // cloned at the apply, which says what fails
            }
          }
          if (System.nanoTime() >= deadline) {
            break;
          }
        }
        return null;
      }, FireBridge.EDT_TIMEOUT_MS, "apply");
    }
    return ready;
  }

  /** Checks, builds, executes and sends the batch; returns a JSON result. */
  static String apply(FireBridge bridge, String json) throws Refused {
    return apply(bridge, json, null);
  }

  /** As {@link #apply(FireBridge, String)}, placing the counters {@code ready} holds cloned (if not null). */
  static String apply(FireBridge bridge, String json, Ready ready) throws Refused {
    long t0 = System.nanoTime();
    java.util.Map<String, Object> batch;
    try {
      batch = obj(Json.parse(json), "the batch");
    }
    catch (Json.JsonError e) {
      throw new Refused("the batch is not JSON: " + e.getMessage());
    }
    GameModule gm = GameModule.getGameModule();
    String why = bridge.whyNoChanges();
    if (why != null) {
      throw new Refused(why);
    }
    // 1. check: phase not yet processed, pieces unchanged since the snapshot, rolls accounted for
    Object phaseObj = batch.get("phase");
    String phase = phaseObj instanceof String ? (String) phaseObj : null;
    if (phase != null && phase.equals(bridge.getProcessed())) {
      throw new Refused("already processed: " + phase + " (pressing twice does not roll twice)");
    }
    java.util.Map<String, Object> expect = batch.get("expect") == null ? new HashMap<>()
        : obj(batch.get("expect"), "batch field \"expect\"");
    for (java.util.Map.Entry<String, Object> e : expect.entrySet()) {
      GamePiece p = gm.getGameState().getPieceForId(e.getKey());
      if (p == null || p.getMap() == null) {
        throw new Refused("piece " + e.getKey() + " has left the game since the snapshot; nothing was changed");
      }
      if (!Snapshot.isVisible(p) || !Snapshot.revision(p).equals(e.getValue())) {
        throw new Refused("piece " + e.getKey() + " (" + p.getName() + ") changed since the snapshot; nothing was changed");
      }
    }
    List<Object> rollTexts = list(batch, "rolls");
    List<FireBridge.Roll> rolled = bridge.rollsOf(batch.get("session"));
    if (rolled.size() != rollTexts.size()) {
      throw new Refused("the batch explains " + rollTexts.size() + " rolls but " + rolled.size()
          + " were rolled in its session; nothing was changed");
    }
    // resolve every target before changing anything
    java.util.Map<String, PieceSlot> slots = null;
    List<Object> places = list(batch, "place");
    List<PieceSlot> placeSlots = new ArrayList<>();
    List<Map> placeMaps = new ArrayList<>();
    List<Point> placePoints = new ArrayList<>();
    for (Object o : places) {
      java.util.Map<String, Object> pl = obj(o, "a placement");
      if (slots == null) {
        slots = slotsByGpid();
      }
      String gpid = text(pl, "gpid", "placement");
      PieceSlot slot = slots.get(gpid);
      if (slot == null) {
        throw new Refused("the module has no counter with gpid " + gpid + "; nothing was changed");
      }
      Map map = mapNamed(pl.get("map") instanceof String ? (String) pl.get("map") : null);
      Point pt;
      if (pl.get("x") instanceof Number && pl.get("y") instanceof Number) {
        pt = new Point(((Number) pl.get("x")).intValue(), ((Number) pl.get("y")).intValue());
        if (map.findBoard(pt) == null) {
          throw new Refused("point " + pt.x + "," + pt.y + " is not on a board of map " + map.getMapName());
        }
      }
      else {
        pt = pointOf(map, pl.get("board") instanceof String ? (String) pl.get("board") : null,
            text(pl, "location", "placement"));
        // an offset from the hex centre: a second stack in the hex (e.g. a fire on an upper level)
        if (pl.get("dx") instanceof Number || pl.get("dy") instanceof Number) {
          int dx = pl.get("dx") instanceof Number ? ((Number) pl.get("dx")).intValue() : 0;
          int dy = pl.get("dy") instanceof Number ? ((Number) pl.get("dy")).intValue() : 0;
          if (Math.abs(dx) > 28 || Math.abs(dy) > 28) {
            throw new Refused("placement offset " + dx + "," + dy + " leaves the hex (at most 28 pixels)");
          }
          pt = new Point(pt.x + dx, pt.y + dy);
          if (map.findBoard(pt) == null) {
            throw new Refused("point " + pt.x + "," + pt.y + " is not on a board of map " + map.getMapName());
          }
        }
      }
      placeSlots.add(slot);
      placeMaps.add(map);
      placePoints.add(pt);
    }
    List<GamePiece> removals = new ArrayList<>();
    for (Object o : list(batch, "remove")) {
      if (!(o instanceof String)) {
        throw new Refused("batch field \"remove\" must list piece ids");
      }
      GamePiece p = gm.getGameState().getPieceForId((String) o);
      if (p == null || !Snapshot.isVisible(p)) {
        throw new Refused("no piece " + o + " to remove; nothing was changed");
      }
      if (!expect.containsKey(o)) {
        throw new Refused("piece " + o + " is removed but not in \"expect\"; nothing was changed");
      }
      removals.add(p);
    }
    List<GamePiece> layerPieces = new ArrayList<>();
    List<Embellishment> layerTraits = new ArrayList<>();
    List<Integer> layerValues = new ArrayList<>();
    for (Object o : list(batch, "layers")) {
      java.util.Map<String, Object> ch = obj(o, "a layer change");
      String id = text(ch, "id", "layer change");
      GamePiece p = gm.getGameState().getPieceForId(id);
      if (p == null || !expect.containsKey(id)) {
        throw new Refused("layer change of piece " + id + ": no such piece, or not in \"expect\"; nothing was changed");
      }
      if (!(ch.get("index") instanceof Number) || !(ch.get("value") instanceof Number)) {
        throw new Refused("layer change of piece " + id + ": \"index\" and \"value\" must be numbers");
      }
      if (((Number) ch.get("value")).intValue() == 0) {
        throw new Refused("layer change of piece " + id + ": \"value\" is a level (1, 2, …) or minus a level to "
            + "switch the layer off, never 0");
      }
      Embellishment e = layer(p, ((Number) ch.get("index")).intValue());
      if (e == null) {
        throw new Refused("piece " + id + " has no layer " + ch.get("index"));
      }
      layerPieces.add(p);
      layerTraits.add(e);
      layerValues.add(((Number) ch.get("value")).intValue());
    }
    // 2. build and execute, chained; on any failure undo what was done
    long t1 = System.nanoTime();
    long tPlace = 0;
    long tSend = 0;
    Command c = null;
    try {
      Chatter chatter = gm.getChatter();
      String player = GlobalOptions.getInstance().getPlayerId();
      List<String> lines = new ArrayList<>();
      for (Object line : list(batch, "chat")) {
        lines.add(String.valueOf(line));
      }
      for (int i = 0; i < rolled.size(); i++) {
        lines.add(rollLine(rolled.get(i), rollTexts.get(i)));
      }
      for (Object line : list(batch, "summary")) {
        lines.add(String.valueOf(line));
      }
      if (!lines.isEmpty()) {
        Command t = new ChatMessage(chatter, lines, player);
        t.execute();
        c = chain(c, t);
      }
      long tChat = System.nanoTime() - t1;
      long tRemove = System.nanoTime();
      List<ChangeMarks.Spot> gone = ChangeMarks.spotsOf(removals);  // where they were: outlined, dashed
      for (GamePiece p : removals) {
        Command r = new RemovePiece(p);
        r.execute();
        c = chain(c, r);
      }
      tRemove = System.nanoTime() - tRemove;
      List<String> placedIds = new ArrayList<>();
      tPlace = System.nanoTime();
      java.util.Map<Map, java.util.Set<Point>> loose = new java.util.HashMap<>();
      for (int i = 0; i < placeSlots.size(); i++) {
        PieceSlot slot = placeSlots.get(i);
        GamePiece np = ready == null ? null : ready.take(slot.getGpId());
        if (np == null) {
          np = PieceCloner.getInstance().clonePiece(slot.getPiece());
        }
        np.setProperty(Properties.PIECE_ID, slot.getGpId());
        Map map = placeMaps.get(i);
        Point pt = placePoints.get(i);
        if (loose.computeIfAbsent(map, Batch::loosePoints).contains(pt)) {
          // VASSAL merges onto a piece in no Stack by making a new Stack of both, and Undo then takes that piece
          // off the map too: the counter gets a Stack of its own at the same point, as placeOrMerge does on an
          // empty point
          c = chain(c, map.placeAt(np, pt));
          Stack own = map.getStackMetrics().createStack(np);
          if (own != null) {
            c = chain(c, map.placeAt(own, pt));
          }
        }
        else {
          c = chain(c, map.placeOrMerge(np, pt));
        }
        placedIds.add(np.getId());
      }
      tPlace = System.nanoTime() - tPlace;
      for (int i = 0; i < layerTraits.size(); i++) {
        ChangeTracker ct = new ChangeTracker(layerPieces.get(i));
        // the value as in the snapshot's state: level n shown (n > 0), or off keeping level -n (n < 0);
        // VASSAL's setValue takes the 0-based level and keeps the on/off status
        int v = layerValues.get(i);
        layerTraits.get(i).setValue(Math.abs(v) - 1);
        layerTraits.get(i).setActive(v > 0);
        c = chain(c, ct.getChangeCommand());
      }
      if (phase != null) {
        PhaseMark m = new PhaseMark(bridge, phase, bridge.getProcessed());
        m.execute();
        c = chain(c, m);
      }
      bridge.consumeSession(batch.get("session"));
      tSend = System.nanoTime();
      if (c != null) {
        gm.sendAndLog(c);
      }
      tSend = System.nanoTime() - tSend;
      List<String> changedIds = new ArrayList<>(placedIds);
      for (GamePiece p : layerPieces) {
        changedIds.add(p.getId());
      }
      bridge.markChanged(changedIds, gone);  // outlined on this player's map only: no Command
      StringBuilder sb = new StringBuilder("{\"ok\":true,\"placed\":[");
      for (int i = 0; i < placedIds.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        Json.quote(sb, placedIds.get(i));
      }
      sb.append("],\"removed\":").append(removals.size()).append(",\"changed\":").append(layerTraits.size())
        .append(",\"rolls\":").append(rolled.size())
        // where the time went on VASSAL's Swing thread (for bench/bench_bridge.py), in microseconds
        .append(",\"us\":{\"check\":").append((t1 - t0) / 1000).append(",\"chat\":").append(tChat / 1000)
        .append(",\"remove\":").append(tRemove / 1000).append(",\"place\":").append(tPlace / 1000)
        .append(",\"send\":").append(tSend / 1000).append(",\"all\":").append((System.nanoTime() - t0) / 1000)
        .append("}}");
      return sb.toString();
    }
    catch (RuntimeException e) {
      try {
        Command undo = c == null ? null : c.getUndoCommand();
        if (undo != null) {
          undo.execute();
        }
      }
      catch (RuntimeException ignored) {
        // best effort: report the original failure
      }
      throw new Refused("applying the batch failed and was undone: " + e);
    }
  }
}
