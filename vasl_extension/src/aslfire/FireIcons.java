package aslfire;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Component;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.GeneralPath;
import java.awt.geom.Line2D;
import java.awt.geom.QuadCurve2D;
import java.awt.geom.RoundRectangle2D;

import javax.swing.Icon;

/**
 * The fire actions' small icons and the toolbar button's state icon, painted with Java2D (no image files): sharp at
 * any screen scale.
 */
final class FireIcons implements Icon {
  static final int SIZE = 16;
  private static final Color FLAME_OUT = new Color(0xD8, 0x3A, 0x10);
  private static final Color FLAME_IN = new Color(0xFF, 0xC2, 0x1E);
  private static final Color INK = new Color(0x33, 0x33, 0x33);
  private static final Color CONNECTED = new Color(0x1E, 0xA0, 0x3C);
  private static final Color NOT_CONNECTED = new Color(0xC8, 0x1E, 0x1E);

  private final String kind;

  private FireIcons(String kind) {
    this.kind = kind;
  }

  /** The icon of a fire action (FireBridge.ACTIONS' names). */
  static Icon forAction(String action) {
    return new FireIcons(action);
  }

  /** The toolbar button's icon: a flame with a green dot (Python connected) or a grey flame and a red cross. */
  static Icon state(boolean connected) {
    return new FireIcons(connected ? "connected" : "not-connected");
  }

  @Override
  public int getIconWidth() {
    return SIZE;
  }

  @Override
  public int getIconHeight() {
    return SIZE;
  }

  @Override
  public void paintIcon(Component c, Graphics g0, int x, int y) {
    Graphics2D g = (Graphics2D) g0.create();
    try {
      g.translate(x, y);
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
      paint(g);
    }
    finally {
      g.dispose();
    }
  }

  private void paint(Graphics2D g) {
    switch (kind) {
      case "wind":
        g.setColor(new Color(0x3C, 0x6E, 0xA8));
        g.setStroke(new BasicStroke(1.8f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(new QuadCurve2D.Double(1, 5, 9, 1, 13, 5));
        g.draw(new QuadCurve2D.Double(1, 9, 10, 6, 15, 9));
        g.draw(new QuadCurve2D.Double(1, 13, 7, 11, 11, 13));
        break;
      case "upkeep":
        flame(g, 2, 1, 12, 14, FLAME_OUT, FLAME_IN);
        break;
      case "odds":
        g.setColor(Color.WHITE);
        g.fill(new RoundRectangle2D.Double(1.5, 1.5, 13, 13, 4, 4));
        g.setColor(INK);
        g.setStroke(new BasicStroke(1.2f));
        g.draw(new RoundRectangle2D.Double(1.5, 1.5, 13, 13, 4, 4));
        for (double[] p : new double[][] {{5, 5}, {8, 8}, {11, 11}, {11, 5}, {5, 11}}) {
          g.fill(new Ellipse2D.Double(p[0] - 1.3, p[1] - 1.3, 2.6, 2.6));
        }
        break;
      case "finder":
        flame(g, 4, 3, 6, 7, FLAME_OUT, FLAME_IN);
        g.setColor(INK);
        g.setStroke(new BasicStroke(1.6f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(new Ellipse2D.Double(1.5, 1.5, 10, 10));
        g.setStroke(new BasicStroke(2.4f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(new Line2D.Double(10, 10, 14.5, 14.5));
        break;
      case "attack":
        g.setColor(INK);
        g.fill(new RoundRectangle2D.Double(0.5, 9, 6, 3.5, 1.5, 1.5));
        GeneralPath jet = new GeneralPath();
        jet.moveTo(6, 9.2);
        jet.curveTo(9, 8, 12, 3, 15.5, 4);
        jet.curveTo(13.5, 7, 15.5, 11, 15.5, 14);
        jet.curveTo(12, 12.5, 9, 12.5, 6, 12.3);
        jet.closePath();
        g.setColor(FLAME_OUT);
        g.fill(jet);
        g.setColor(FLAME_IN);
        g.fill(new Ellipse2D.Double(7, 9, 5, 3));
        break;
      case "firestart":
        g.setColor(FLAME_OUT);
        g.setStroke(new BasicStroke(1.6f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        for (int i = 0; i < 8; i++) {
          double a = Math.PI * i / 4;
          double r0 = i % 2 == 0 ? 3.5 : 3;
          double r1 = i % 2 == 0 ? 7.5 : 5.5;
          g.draw(new Line2D.Double(8 + r0 * Math.cos(a), 8 + r0 * Math.sin(a), 8 + r1 * Math.cos(a),
              8 + r1 * Math.sin(a)));
        }
        g.setColor(FLAME_IN);
        g.fill(new Ellipse2D.Double(5.5, 5.5, 5, 5));
        break;
      case "hob":
        g.setColor(new Color(0xB0, 0x1E, 0x1E));
        g.fill(new Ellipse2D.Double(1, 1, 14, 14));
        g.setColor(Color.WHITE);
        g.fill(new RoundRectangle2D.Double(6.8, 3.5, 2.4, 6.5, 1.5, 1.5));
        g.fill(new Ellipse2D.Double(6.7, 11, 2.6, 2.6));
        break;
      case "rtph":
        flame(g, 0, 3, 8, 11, FLAME_OUT, FLAME_IN);
        g.setColor(CONNECTED);
        g.setStroke(new BasicStroke(2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(new Line2D.Double(7, 9, 14.5, 9));
        g.draw(new Line2D.Double(11.5, 6, 14.5, 9));
        g.draw(new Line2D.Double(11.5, 12, 14.5, 9));
        break;
      case "risk":  // a hexagon shaded from pale yellow to red
        java.awt.Polygon hex = RiskLayer.hexagon(new java.awt.Point(8, 8), 7.5, false);
        g.setPaint(new java.awt.GradientPaint(0, 1, RiskLayer.colour(0.05), 0, 15, RiskLayer.colour(0.6)));
        g.fill(hex);
        g.setColor(INK);
        g.setStroke(new BasicStroke(1.2f));
        g.draw(hex);
        break;
      case "connected":
        flame(g, 1, 0, 12, 14, FLAME_OUT, FLAME_IN);
        dot(g, CONNECTED);
        break;
      default:  // not connected: a grey flame and a red cross
        flame(g, 1, 0, 12, 14, new Color(0x8C, 0x8C, 0x8C), new Color(0xC8, 0xC8, 0xC8));
        dot(g, NOT_CONNECTED);
        g.setColor(Color.WHITE);
        g.setStroke(new BasicStroke(1.3f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(new Line2D.Double(10.2, 10.2, 13.8, 13.8));
        g.draw(new Line2D.Double(13.8, 10.2, 10.2, 13.8));
        break;
    }
  }

  private static void dot(Graphics2D g, Color c) {
    g.setColor(Color.WHITE);
    g.fill(new Ellipse2D.Double(8, 8, 8, 8));
    g.setColor(c);
    g.fill(new Ellipse2D.Double(9, 9, 6, 6));
  }

  /** A flame in the box (x, y, w, h): an outer tongue and an inner core. */
  private static void flame(Graphics2D g, double x, double y, double w, double h, Color out, Color in) {
    g.setColor(out);
    g.fill(tongue(x, y, w, h));
    g.setColor(in);
    g.fill(tongue(x + w * 0.28, y + h * 0.42, w * 0.44, h * 0.58));
  }

  private static GeneralPath tongue(double x, double y, double w, double h) {
    GeneralPath p = new GeneralPath();
    p.moveTo(x + w * 0.5, y);
    p.curveTo(x + w * 0.62, y + h * 0.3, x + w, y + h * 0.45, x + w, y + h * 0.7);
    p.curveTo(x + w, y + h * 0.88, x + w * 0.78, y + h, x + w * 0.5, y + h);
    p.curveTo(x + w * 0.22, y + h, x, y + h * 0.88, x, y + h * 0.7);
    p.curveTo(x, y + h * 0.45, x + w * 0.38, y + h * 0.32, x + w * 0.5, y);
    p.closePath();
    return p;
  }
}
