package VASL.LOS.Map;

import java.awt.Point;

/** Test stand-in with VASL's method names (see tests/support/java/README.md). */
public class Hex {
  private final int col;
  private final int row;
  private final double x;
  private final double y;
  private String name;
  private int baseHeight;
  private Location center;
  private Terrain around;

  public Hex(int col, int row, String name, double x, double y, int baseHeight, Location center) {
    this.col = col;
    this.row = row;
    this.name = name;
    this.x = x;
    this.y = y;
    this.baseHeight = baseHeight;
    this.center = center;
  }

  public String getName() {
    return name;
  }

  public int getColumnNumber() {
    return col;
  }

  public int getRowNumber() {
    return row;
  }

  /** As VASL's: the centre in the VASL map's pixels (0, 0 = the top left of the boards). */
  public Point getHexCenter() {
    return new Point((int) x, (int) y);
  }

  double centerX() {
    return x;
  }

  double centerY() {
    return y;
  }

  public int getBaseHeight() {
    return baseHeight;
  }

  public Location getCenterLocation() {
    return center;
  }

  void set(int elevation, Location c) {
    baseHeight = elevation;
    center = c;
  }

  /** The terrain drawn in the hex away from a strip 16 px wide down its centre (null: its centre's everywhere). */
  Terrain around() {
    return around;
  }

  void setAround(Terrain t) {
    around = t;
  }

  /** As VASL's {@code Hex.copy}: name, base height and the Locations, the grid place and centre stay. */
  public void copy(Hex h) {
    name = h.getName();
    baseHeight = h.getBaseHeight();
    center = h.getCenterLocation();
    around = h.around;
  }
}
