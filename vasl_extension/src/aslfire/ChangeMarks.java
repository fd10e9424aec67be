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

/**
 * Outlines on the map the counters the last fire action placed or changed, until the next action or the game's
 * close. Only this player's VASSAL paints them: a Drawable, no Command, nothing sent or logged.
 */
final class ChangeMarks implements Drawable {
  static final Color OUTER = new Color(0x20, 0x20, 0x20);
  static final Color INNER = new Color(0xFF, 0xE0, 0x00);

  private final Set<Map> drawnOn = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  private volatile List<String> ids = Collections.emptyList();

  /** Marks these pieces (ids), replacing the marks before. Runs on the Swing thread. */
  void mark(java.util.Collection<String> pieceIds) {
    List<String> old = ids;
    ids = Collections.unmodifiableList(new ArrayList<>(new LinkedHashSet<>(pieceIds)));
    repaint(old);
    repaint(ids);
  }

  /** Removes every mark. Runs on the Swing thread. */
  void clear() {
    List<String> old = ids;
    if (!old.isEmpty()) {
      ids = Collections.emptyList();
      repaint(old);
    }
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

  private void repaint(List<String> which) {
    GameModule gm = GameModule.getGameModule();
    if (gm == null) {
      return;
    }
    for (String id : which) {
      GamePiece p = gm.getGameState().getPieceForId(id);
      Map m = p == null ? null : p.getMap();
      if (m != null) {
        if (drawnOn.add(m)) {
          m.addDrawComponent(this);
        }
        m.repaint();
      }
    }
  }

  @Override
  public boolean drawAboveCounters() {
    return true;
  }

  @Override
  public void draw(Graphics g, Map map) {
    List<String> now = ids;
    if (now.isEmpty()) {
      return;
    }
    GameModule gm = GameModule.getGameModule();
    Graphics2D g2 = (Graphics2D) g.create();
    try {
      g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      double osScale = g2.getDeviceConfiguration().getDefaultTransform().getScaleX();
      float w = (float) Math.max(1.0, osScale);
      for (String id : now) {
        GamePiece p = gm.getGameState().getPieceForId(id);
        if (p == null || p.getMap() != map || !Snapshot.isVisible(p)) {
          continue;
        }
        Rectangle r = map.mapToDrawing(map.selectionBoundsOf(p), osScale);
        r.grow(Math.round(3 * w), Math.round(3 * w));
        g2.setStroke(new BasicStroke(5 * w));
        g2.setColor(OUTER);
        g2.drawRoundRect(r.x, r.y, r.width, r.height, Math.round(8 * w), Math.round(8 * w));
        g2.setStroke(new BasicStroke(3 * w));
        g2.setColor(INNER);
        g2.drawRoundRect(r.x, r.y, r.width, r.height, Math.round(8 * w), Math.round(8 * w));
      }
    }
    finally {
      g2.dispose();
    }
  }
}
