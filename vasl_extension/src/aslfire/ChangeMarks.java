package aslfire;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import VASSAL.build.GameModule;
import VASSAL.build.module.Map;
import VASSAL.build.module.map.Drawable;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Stack;

/**
 * Outlines on the map the counters the last fire action placed or changed, and (dashed) where the counters it
 * removed were, until the next action or the game's close. Only this player's VASSAL paints them: a Drawable, no
 * Command, nothing sent or logged.
 */
final class ChangeMarks implements Drawable {
  static final Color OUTER = new Color(0x20, 0x20, 0x20);
  static final Color INNER = new Color(0xFF, 0xE0, 0x00);

  /** Where a removed counter was: its map and its bounds there (map coordinates). */
  static final class Spot {
    final Map map;
    final Rectangle bounds;

    Spot(Map map, Rectangle bounds) {
      this.map = map;
      this.bounds = bounds;
    }
  }

  private final Set<Map> drawnOn = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  private volatile long generation;
  private volatile List<String> ids = Collections.emptyList();
  private volatile List<Spot> gone = Collections.emptyList();

  /** Where these pieces are now (call before removing them): the visible ones on a map. */
  static List<Spot> spotsOf(List<GamePiece> pieces) {
    List<Spot> out = new ArrayList<>();
    for (GamePiece p : pieces) {
      Map m = p.getMap();
      if (m != null && Snapshot.isVisible(p)) {
        out.add(new Spot(m, m.selectionBoundsOf(p)));
      }
    }
    return out;
  }

  /** Marks these pieces (ids) and the spots of removed ones, replacing the marks before. Runs on the Swing thread. */
  void mark(java.util.Collection<String> pieceIds, List<Spot> removed) {
    generation++;
    clear();
    ids = Collections.unmodifiableList(new ArrayList<>(new LinkedHashSet<>(pieceIds)));
    gone = Collections.unmodifiableList(new ArrayList<>(removed));
    repaint(ids, gone);
  }

  /** How many times marks were set: a press that set none since {@code g} clears the older ones. */
  long generation() {
    return generation;
  }

  /** Removes every mark unless marks were set since {@code g}. Runs on the Swing thread. */
  void clearIfStill(long g) {
    if (generation == g) {
      clear();
    }
  }

  /** Removes every mark. Runs on the Swing thread. */
  void clear() {
    List<String> old = ids;
    List<Spot> oldGone = gone;
    if (!old.isEmpty() || !oldGone.isEmpty()) {
      ids = Collections.emptyList();
      gone = Collections.emptyList();
      repaint(old, oldGone);
    }
  }

  /** Where the counters removed were. */
  List<Spot> goneSpots() {
    return gone;
  }

  /** The ids marked now. */
  List<String> marked() {
    return ids;
  }

  void removeFromMaps() {
    for (Map m : drawnOn) {
      m.removeDrawComponent(this);
    }
    drawnOn.clear();
  }

  private void repaint(List<String> which, List<Spot> spots) {
    GameModule gm = GameModule.getGameModule();
    if (gm == null) {
      return;
    }
    Set<Map> maps = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (String id : which) {
      GamePiece p = gm.getGameState().getPieceForId(id);
      if (p != null && p.getMap() != null) {
        maps.add(p.getMap());
      }
    }
    for (Spot s : spots) {
      maps.add(s.map);
    }
    for (Map m : maps) {
      if (drawnOn.add(m)) {
        m.addDrawComponent(this);
      }
      m.repaint();
    }
  }

  @Override
  public boolean drawAboveCounters() {
    return true;
  }

  @Override
  public void draw(Graphics g, Map map) {
    List<String> now = ids;
    List<Spot> spots = gone;
    if (now.isEmpty() && spots.isEmpty()) {
      return;
    }
    GameModule gm = GameModule.getGameModule();
    Graphics2D g2 = (Graphics2D) g.create();
    try {
      double osScale = g2.getDeviceConfiguration().getDefaultTransform().getScaleX();
      float w = (float) Math.max(1.0, osScale);
      // the marked counters of one closed stack get one outline around them all
      java.util.Map<Object, Rectangle> boxes = new java.util.LinkedHashMap<>();
      for (String id : now) {
        GamePiece p = gm.getGameState().getPieceForId(id);
        if (p == null || p.getMap() != map || !Snapshot.isVisible(p)) {
          continue;
        }
        Stack parent = p.getParent();
        Object key = parent != null && !parent.isExpanded() ? parent : p;
        Rectangle r = map.selectionBoundsOf(p);
        boxes.merge(key, r, Rectangle::union);
      }
      Rectangle clip = g2.getClipBounds();
      List<Rectangle> solid = new ArrayList<>();
      for (Rectangle r : boxes.values()) {
        visible(map.mapToDrawing(r, osScale), clip, w, solid);
      }
      List<Rectangle> dashed = new ArrayList<>();
      for (Spot s : spots) {
        if (s.map == map) {
          visible(map.mapToDrawing(new Rectangle(s.bounds), osScale), clip, w, dashed);
        }
      }
      // antialiased wide strokes cost VASSAL's repaint ~1 ms each: smooth corners only for a few outlines
      g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, solid.size() + dashed.size() <= SMOOTH_UP_TO
          ? RenderingHints.VALUE_ANTIALIAS_ON : RenderingHints.VALUE_ANTIALIAS_OFF);
      for (Rectangle r : solid) {
        outline(g2, r, w, null);
      }
      for (Rectangle r : dashed) {
        outline(g2, r, w, new float[] {6 * w, 4 * w});
      }
    }
    finally {
      g2.dispose();
    }
  }

  /** The outlines drawn with smooth (antialiased) corners when no more than this many are in view. */
  static final int SMOOTH_UP_TO = 12;

  /** Adds {@code r} grown by the outline's width to {@code out} if it meets the area being painted. */
  private static void visible(Rectangle r, Rectangle clip, float w, List<Rectangle> out) {
    int pad = Math.round(6 * w);
    if (clip == null || clip.intersects(r.x - pad, r.y - pad, r.width + 2 * pad, r.height + 2 * pad)) {
      out.add(r);
    }
  }

  /** A yellow rounded outline on a dark one around {@code r} (drawing coordinates); dashed for a removed counter. */
  private static void outline(Graphics2D g2, Rectangle r, float w, float[] dash) {
    r.grow(Math.round(3 * w), Math.round(3 * w));
    int arc = Math.round(8 * w);
    g2.setStroke(dash == null ? new BasicStroke(5 * w)
        : new BasicStroke(5 * w, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, dash, 0f));
    g2.setColor(OUTER);
    g2.drawRoundRect(r.x, r.y, r.width, r.height, arc, arc);
    g2.setStroke(dash == null ? new BasicStroke(3 * w)
        : new BasicStroke(3 * w, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, dash, 0f));
    g2.setColor(INNER);
    g2.drawRoundRect(r.x, r.y, r.width, r.height, arc, arc);
  }
}
