package VASL.LOS.Map;

import java.awt.Point;

/**
 * Test stand-in with VASL 6.7.x's method names (see tests/support/java/README.md): the hex's ground level is
 * {@code getBaseLevelofHex()} (the VASL of 2020 called it {@code getBaseHeight()}: the variants of
 * tests/support/standin_variants.py rename it).
 */
public class Hex {
  private final int col;
  private final int row;
  private final double x;
  private final double y;
  private String name;
  private int baseLevel;
  private Location center;
  private Terrain around;

  public Hex(int col, int row, String name, double x, double y, int baseLevel, Location center) {
    this.col = col;
    this.row = row;
    this.name = name;
    this.x = x;
    this.y = y;
    this.baseLevel = baseLevel;
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

  /** As VASL's: the centre in the VASL map's pixels (0, 0 = the top left of the boards), truncated. */
  public Point getHexCenter() {
    return new Point((int) x, (int) y);
  }

  double centerX() {
    return x;
  }

  double centerY() {
    return y;
  }

  public int getBaseLevelofHex() {
    return baseLevel;
  }

  /** The ground level, for the stand-in's own use (whatever VASL calls it). */
  int level() {
    return baseLevel;
  }

  public Location getCenterLocation() {
    return center;
  }

  void set(int level, Location c) {
    baseLevel = level;
    center = c;
  }

  /** The terrain drawn in the hex away from a strip 16 px wide down its centre (null: its centre's everywhere). */
  Terrain around() {
    return around;
  }

  void setAround(Terrain t) {
    around = t;
  }

  /**
   * As VASL 6.7.x's {@code BoardArchive.addLOSDatatoVASLMap} gives a map-wide grid hex a board's hex: the board's
   * name ({@code resetHexAndLocationNames}), ground level and Locations; the grid place and centre stay the map's.
   */
  public void copy(Hex h) {
    name = h.getName();
    baseLevel = h.level();
    center = h.getCenterLocation();
    around = h.around;
  }
}
