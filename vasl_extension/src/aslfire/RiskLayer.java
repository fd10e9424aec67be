package aslfire;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.Point;
import java.awt.Polygon;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.awt.event.MouseListener;
import java.awt.event.MouseMotionAdapter;
import java.awt.event.MouseMotionListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import javax.swing.JComponent;
import javax.swing.JViewport;
import javax.swing.SwingUtilities;
import javax.swing.Timer;
import javax.swing.event.ChangeListener;

import VASSAL.build.GameModule;
import VASSAL.build.module.Map;
import VASSAL.build.module.map.Drawable;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.build.module.map.boardPicker.board.HexGrid;
import VASSAL.build.module.map.boardPicker.board.MapGrid;
import VASSAL.counters.GamePiece;

/**
 * The "Fire risk" layer: each hex holding a Location that may catch fire at the end of this AFPh, shaded by its
 * exact chance (Python computes them: the numbers of Fire odds), a legend, and under the mouse the rolls' DRMs. Only
 * this player's VASSAL shows it: a Drawable and a tooltip, no Command, nothing sent or logged. While it is on, the
 * counters are polled (as {@link PhaseWatch} does) and a change asks Python again; a change during a recomputation
 * is not queued behind it: the next one starts from the game as it is then.
 */
final class RiskLayer implements Drawable {
  static final String EVENT = "risk";
  static final int PERIOD_MS = Integer.getInteger("aslfire.riskMs", 250);
  /** After a move on the map or a command from another player, the counters are looked at this soon. */
  static final int SOON_MS = 40;
  /** Drawn where no board grid says a hex's size: VASL's hex height is 64.5 px. */
  static final double DEFAULT_HEX_HEIGHT = 64.5;

  /** One shaded hex: where (map coordinates), how likely, its label and its tooltip lines. */
  static final class Shade {
    final Map map;
    final Point centre;
    final double radius;
    final boolean sideways;
    final double chance;
    final String label;
    final String tip;

    Shade(Map map, Point centre, double radius, boolean sideways, double chance, String label, String tip) {
      this.map = map;
      this.centre = centre;
      this.radius = radius;
      this.sideways = sideways;
      this.chance = chance;
      this.label = label;
      this.tip = tip;
    }
  }

  private final FireBridge bridge;
  private volatile boolean on;
  private volatile List<Shade> shades = Collections.emptyList();
  private volatile String title = "";
  private volatile String status = "";
  private volatile Set<String> watched = Collections.emptySet();
  private volatile long updates;
  /** The longest draw of the layer since its numbers last came, in microseconds (the bench reads it). */
  private volatile long drawMicros;
  private String seen;
  private boolean dirty;
  private Timer timer;
  private final java.util.Map<Map, Hooks> hooked = new java.util.IdentityHashMap<>();

  /**
   * What the layer adds to a map while it is on: the tooltip under the mouse, the repaint on scrolling, a look at the
   * counters soon after a mouse button is released on it (a move, a delete).
   */
  private static final class Hooks {
    final MouseMotionListener hover;
    final ChangeListener scroll;
    final JViewport viewport;
    final MouseListener released;

    Hooks(MouseMotionListener hover, ChangeListener scroll, JViewport viewport, MouseListener released) {
      this.hover = hover;
      this.scroll = scroll;
      this.viewport = viewport;
      this.released = released;
    }
  }

  private Timer soon;

  /** Looks at the counters shortly (a command came in, or the player released the mouse on a map). */
  void soon() {
    if (!on) {
      return;
    }
    SwingUtilities.invokeLater(() -> {
      if (soon == null) {
        soon = new Timer(SOON_MS, e -> tick());
        soon.setRepeats(false);
      }
      soon.restart();
    });
  }

  RiskLayer(FireBridge bridge) {
    this.bridge = bridge;
  }

  boolean isOn() {
    return on;
  }

  /** How many times Python's numbers were drawn (tests wait on it). */
  long updates() {
    return updates;
  }

  long drawMicros() {
    return drawMicros;
  }

  List<Shade> shades() {
    return shades;
  }

  String status() {
    return status;
  }

  /** The toolbar's toggle. Runs on the Swing thread. */
  void toggle() {
    if (on) {
      off();
    }
    else {
      on = true;
      status = "computing…";
      seen = null;
      dirty = true;
      for (Map m : Map.getMapList()) {
        hook(m);
      }
      if (timer == null) {
        timer = new Timer(PERIOD_MS, e -> tick());
        timer.start();
      }
      tick();
      repaintAll();
    }
  }

  /** Off, and forgotten (the game closes, or the player toggles it). Runs on the Swing thread. */
  void off() {
    boolean was = on;
    on = false;
    if (timer != null) {
      timer.stop();
      timer = null;
    }
    if (soon != null) {
      soon.stop();
    }
    shades = Collections.emptyList();
    status = "";
    for (java.util.Map.Entry<Map, Hooks> e : hooked.entrySet()) {
      JComponent view = e.getKey().getView();
      view.removeMouseMotionListener(e.getValue().hover);
      if (e.getValue().viewport != null) {
        e.getValue().viewport.removeChangeListener(e.getValue().scroll);
      }
      view.setToolTipText(null);
      e.getKey().removeLocalMouseListener(e.getValue().released);
      e.getKey().removeDrawComponent(this);
      e.getKey().removeDrawComponent(above);
    }
    hooked.clear();
    if (was) {
      repaintAll();
    }
  }

  /** Python's numbers could not be had (no Python, or it refused): said in the legend. */
  void failed(String why) {
    if (on) {
      status = why;
      repaintAll();
    }
  }

  /**
   * Python's numbers: {@code {"title": …, "watch": [piece ids], "shades": [{"map", "board", "hex", "chance",
   * "label", "tip"}]}}. A hex no board of its map has is left out. Runs on the Swing thread.
   */
  void set(java.util.Map<String, Object> data) throws Batch.Refused {
    List<Shade> out = new ArrayList<>();
    for (Object o : Batch.list(data, "shades")) {
      if (!(o instanceof java.util.Map)) {
        throw new Batch.Refused("risk layer: each shade must be a JSON object");
      }
      @SuppressWarnings("unchecked")
      java.util.Map<String, Object> s = (java.util.Map<String, Object>) o;
      Object mapName = s.get("map");
      Map map = Batch.mapNamed(mapName instanceof String ? (String) mapName : null);
      Object board = s.get("board");
      Point p;
      try {
        p = Batch.pointOf(map, board instanceof String ? (String) board : null, Batch.text(s, "hex", "risk layer"));
      }
      catch (Batch.Refused e) {
        continue;
      }
      Object chance = s.get("chance");
      if (!(chance instanceof Number)) {
        throw new Batch.Refused("risk layer: field \"chance\" must be a number");
      }
      Board b = map.findBoard(p);
      MapGrid grid = b == null ? null : b.getGrid();
      double height = grid instanceof HexGrid ? ((HexGrid) grid).getHexSize() : DEFAULT_HEX_HEIGHT;
      boolean sideways = grid instanceof HexGrid && ((HexGrid) grid).isSideways();
      out.add(new Shade(map, p, height / Math.sqrt(3), sideways, ((Number) chance).doubleValue(),
          Batch.text(s, "label", "risk layer"), Batch.text(s, "tip", "risk layer")));
    }
    Set<String> watch = new HashSet<>();
    Object w = data.get("watch");
    if (w instanceof List) {
      for (Object x : (List<?>) w) {
        watch.add(String.valueOf(x));
      }
    }
    Object t = data.get("title");
    if (!on) {
      return;  // turned off while Python computed
    }
    watched = Collections.unmodifiableSet(watch);
    title = t instanceof String ? (String) t : "";
    shades = Collections.unmodifiableList(out);
    status = "";
    drawMicros = 0;
    updates++;
    for (Map m : Map.getMapList()) {
      hook(m);
    }
    repaintAll();
  }

  private void tick() {
    GameModule gm = GameModule.getGameModule();
    if (!on || gm == null || !gm.getGameState().isGameStarted()) {
      return;
    }
    String now = BridgePrefs.riskMode() + '\n' + fingerprint(watched);  // a mode changed in the preferences too
    if (!now.equals(seen)) {
      dirty = true;
    }
    if (!dirty) {
      return;
    }
    if (bridge.getListener() == null) {
      failed("Python is not connected: " + bridge.startHint());
      return;
    }
    if (bridge.notifyPython(EVENT)) {
      dirty = false;
      seen = now;
    }
  }

  /** Where every piece is, and the states of the counters Python named (fire, weather, Level and Wreck counters). */
  private static String fingerprint(Set<String> watch) {
    StringBuilder sb = new StringBuilder();
    for (Map map : Map.getMapList()) {
      sb.append(map.getMapName()).append('\n');
      for (GamePiece p : Snapshot.allPieces(map)) {
        Point at = p.getPosition();
        sb.append(p.getId()).append(' ').append(at.x).append(' ').append(at.y);
        if (watch.contains(p.getId())) {
          sb.append(' ').append(p.getState());
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  private void hook(Map m) {
    if (hooked.containsKey(m)) {
      return;
    }
    m.addDrawComponent(this);
    m.addDrawComponent(above);
    MouseMotionListener hover = new MouseMotionAdapter() {
      @Override
      public void mouseMoved(MouseEvent e) {
        Shade s = under(m, m.componentToMap(e.getPoint()));
        m.getView().setToolTipText(s == null ? null : tipHtml(s));
      }
    };
    m.getView().addMouseMotionListener(hover);
    JViewport viewport = (JViewport) SwingUtilities.getAncestorOfClass(JViewport.class, m.getView());
    ChangeListener scroll = e -> m.getView().repaint();  // the legend stays in the view's corner
    if (viewport != null) {
      viewport.addChangeListener(scroll);
    }
    MouseListener released = new MouseAdapter() {
      @Override
      public void mouseReleased(MouseEvent e) {
        soon();
      }
    };
    m.addLocalMouseListener(released);
    hooked.put(m, new Hooks(hover, scroll, viewport, released));
  }

  /** The shaded hex under {@code p} (map coordinates), or null. */
  Shade under(Map m, Point p) {
    for (Shade s : shades) {
      if (s.map == m && p.distance(s.centre) <= s.radius * 0.9) {
        return s;
      }
    }
    return null;
  }

  static String tipHtml(Shade s) {
    StringBuilder sb = new StringBuilder("<html>");
    String[] lines = s.tip.split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (i > 0) {
        sb.append("<br>");
      }
      String line = ChatMessage.escape(lines[i]);
      sb.append(i == 0 ? "<b>" + line + "</b>" : line);
    }
    return sb.append("</html>").toString();
  }

  private static void repaintAll() {
    for (Map m : Map.getMapList()) {
      m.repaint();
    }
  }

  /** The shades go under the counters (they stay readable); the percentages and the legend above them. */
  @Override
  public boolean drawAboveCounters() {
    return false;
  }

  /** The layer's part drawn above the counters: each shade's label and the legend. */
  private final Drawable above = new Drawable() {
    @Override
    public void draw(Graphics g, Map map) {
      paint(g, map, true);
    }

    @Override
    public boolean drawAboveCounters() {
      return true;
    }
  };

  private long belowMicros;

  /** The shade of a chance: pale yellow for a small one, through orange, to red from one in two. */
  static Color colour(double chance) {
    double c = Math.max(0.0, Math.min(1.0, chance * 2));
    int green = (int) Math.round(0xE0 - c * (0xE0 - 0x20));
    return new Color(0xFF, green, 0x00);
  }

  @Override
  public void draw(Graphics g, Map map) {
    paint(g, map, false);
  }

  /** The shades ({@code labels} false) or their labels and the legend ({@code labels} true). */
  private void paint(Graphics g, Map map, boolean labels) {
    if (!on) {
      return;
    }
    long start = System.nanoTime();
    Graphics2D g2 = (Graphics2D) g.create();
    try {
      double osScale = g2.getDeviceConfiguration().getDefaultTransform().getScaleX();
      double scale = map.getZoom() * osScale;
      g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g2.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      Rectangle clip = g2.getClipBounds();
      BasicStroke edge = new BasicStroke((float) Math.max(1.0, 2 * scale));
      // the percentages only where they can be read: at VASSAL's smaller zooms the shades alone
      Font font = 13 * scale >= 8 ? new Font(Font.SANS_SERIF, Font.BOLD, (int) Math.round(Math.max(10, 13 * scale)))
          : null;
      for (Shade s : shades) {
        if (s.map != map) {
          continue;
        }
        Point c = map.mapToDrawing(s.centre, osScale);
        double r = s.radius * scale;
        if (clip != null && !clip.intersects(c.x - r - 2, c.y - r - 2, 2 * r + 4, 2 * r + 4)) {
          continue;
        }
        if (labels) {
          if (font != null) {
            label(g2, font, s.label, c.x, (int) Math.round(c.y + r * 0.55));
          }
          continue;
        }
        Polygon hex = hexagon(c, r * 0.96, s.sideways);
        Color shade = colour(s.chance);
        g2.setColor(new Color(shade.getRed(), shade.getGreen(), 0, (int) Math.round(255 * (0.30 + 0.35 * s.chance))));
        g2.fillPolygon(hex);
        g2.setStroke(edge);
        g2.setColor(shade.darker());
        g2.drawPolygon(hex);
      }
      if (labels) {
        legend(g2, map, osScale);
      }
    }
    finally {
      g2.dispose();
      long took = (System.nanoTime() - start) / 1000;
      if (labels) {
        drawMicros = Math.max(drawMicros, belowMicros + took);  // the two parts of one repaint
      }
      else {
        belowMicros = took;
      }
    }
  }

  static Polygon hexagon(Point c, double r, boolean sideways) {
    Polygon p = new Polygon();
    for (int k = 0; k < 6; k++) {
      double a = Math.toRadians(60 * k + (sideways ? 30 : 0));
      p.addPoint((int) Math.round(c.x + r * Math.cos(a)), (int) Math.round(c.y + r * Math.sin(a)));
    }
    return p;
  }

  /** Text in a dark box, readable on any terrain and counter. */
  private static void label(Graphics2D g2, Font font, String text, int x, int y) {
    if (text.isEmpty()) {
      return;
    }
    g2.setFont(font);
    FontMetrics fm = g2.getFontMetrics();
    int w = fm.stringWidth(text);
    int h = fm.getAscent();
    g2.setColor(new Color(0, 0, 0, 190));
    g2.fillRoundRect(x - w / 2 - 3, y - h / 2 - 2, w + 6, h + 4, 6, 6);
    g2.setColor(Color.WHITE);
    g2.drawString(text, x - w / 2, y + h / 2 - 1);
  }

  /** The legend, in the top left corner of the map's window. */
  private void legend(Graphics2D g2, Map map, double osScale) {
    Rectangle vis = map.getView().getVisibleRect();
    int x = (int) Math.round((vis.x + 8) * osScale);
    int y = (int) Math.round((vis.y + 8) * osScale);
    Font f = new Font(Font.SANS_SERIF, Font.PLAIN, (int) Math.round(12 * osScale));
    Font b = f.deriveFont(Font.BOLD);
    String head = title.isEmpty() ? "Fire risk" : title;
    String foot = status.isEmpty() ? "Hover a shaded hex for its DRMs" : status;
    g2.setFont(b);
    int w = g2.getFontMetrics().stringWidth(head);
    g2.setFont(f);
    FontMetrics fm = g2.getFontMetrics();
    int ramp = (int) Math.round(160 * osScale);
    w = Math.max(Math.max(w, fm.stringWidth(foot)), ramp + fm.stringWidth(" 50%+ ") + fm.stringWidth("0%"));
    int line = fm.getHeight();
    int pad = (int) Math.round(6 * osScale);
    g2.setColor(new Color(255, 255, 255, 230));
    g2.fillRoundRect(x, y, w + 2 * pad, 3 * line + 2 * pad + pad, 8, 8);
    g2.setColor(new Color(0x30, 0x30, 0x30));
    g2.drawRoundRect(x, y, w + 2 * pad, 3 * line + 2 * pad + pad, 8, 8);
    int tx = x + pad;
    int ty = y + pad + fm.getAscent();
    g2.setFont(b);
    g2.drawString(head, tx, ty);
    g2.setFont(f);
    ty += line + pad / 2;
    g2.drawString("0%", tx, ty);
    int rx = tx + fm.stringWidth("0% ");
    for (int i = 0; i < ramp; i++) {
      double c = 0.5 * i / ramp;
      g2.setColor(colour(c));
      g2.fillRect(rx + i, ty - fm.getAscent() + 2, 1, fm.getAscent() - 2);
    }
    g2.setColor(new Color(0x30, 0x30, 0x30));
    g2.drawString(" 50%+", rx + ramp, ty);
    ty += line;
    g2.drawString(foot, tx, ty);
  }
}
