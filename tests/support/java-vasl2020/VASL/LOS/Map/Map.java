package VASL.LOS.Map;

import java.util.ArrayList;
import java.util.List;

/**
 * Test stand-in with VASL's method names (see tests/support/java/README.md), built the way VASL's {@code Map} is:
 * one grid of hexes for the whole map, {@code hexGrid[col]} holding {@code height + col % 2} hexes
 * ({@code getHex(col, row)} has no bounds check, as VASL's), each board's own {@code Map} inserted at its place
 * with {@link #insertMap}, which copies the board's hexes, board-local names included, over the map's (so a
 * lower board's row-0 half hexes replace the upper board's row-10 ones), and {@link #flip} for a reversed board.
 * The terrain is a test description (see {@link #board}), not VASL data.
 */
public class Map {
  /** Pixels between column centres and between row centres of a geomorphic board (VASL's GEO_HEX_WIDTH/HEIGHT). */
  public static final double HEX_WIDTH = 56.25;
  public static final double HEX_HEIGHT = 64.5;

  private final int width;
  private final int height;
  private final Hex[][] hexGrid;

  /** An Open Ground map of {@code width} columns and {@code height} rows (VASL's geomorphic naming: A1, B0…). */
  public Map(int width, int height) {
    this.width = width;
    this.height = height;
    hexGrid = new Hex[width][];
    for (int col = 0; col < width; col++) {
      hexGrid[col] = new Hex[height + (col % 2)];
      for (int row = 0; row < height + (col % 2); row++) {
        String name = geoName(col, row);
        hexGrid[col][row] = new Hex(col, row, name, col * HEX_WIDTH,
            row * HEX_HEIGHT + (col % 2 == 0 ? HEX_HEIGHT / 2 : 0), 0, new Location(name, 0, new Terrain("Open Ground")));
      }
    }
  }

  /** VASL's {@code getGEOHexName}: column letters (AA… after Z), row + 1 in even columns. */
  static String geoName(int col, int row) {
    char c = (char) ('A' + col % 26);
    StringBuilder name = new StringBuilder().append(c);
    for (int x = 0; x < col / 26; x++) {
      name.append(c);
    }
    return name.append(row + (col % 2 == 0 ? 1 : 0)).toString();
  }

  /**
   * One geomorphic board (33 × 10) described by {@code spec}: lines {@code HEX<TAB>TERRAIN[<TAB>ELEVATION[<TAB>UPPER
   * LEVELS]]}; unlisted hexes are Open Ground at elevation 0. {@code TERRAIN} may be {@code CENTRE/AROUND}
   * ({@code Dirt Road/Woods}): the centre's terrain in a strip 16 px wide down the hex, the other drawn around it. A null spec gives the default test board: Woods in
   * C2–E3, a Wooden Building with one upper level in G4, Brush in H2, a hill (elevation 1) in column J.
   */
  public static Map board(String spec) {
    Map m = new Map(33, 10);
    List<String[]> lines = new ArrayList<>();
    if (spec == null) {
      for (String h : new String[] {"C2", "C3", "D2", "D3", "E2", "E3"}) {
        lines.add(new String[] {h, "Woods"});
      }
      lines.add(new String[] {"G4", "Wooden Building, 1 Level", "0", "1"});
      lines.add(new String[] {"H2", "Brush"});
      for (int row = 0; row <= 10; row++) {
        lines.add(new String[] {"J" + row, "Open Ground", "1"});
      }
    }
    else {
      for (String line : spec.split("\n")) {
        if (!line.trim().isEmpty() && !line.startsWith("#")) {
          lines.add(line.split("\t"));
        }
      }
    }
    for (String[] f : lines) {
      Hex h = m.named(f[0].trim());
      if (h == null) {
        continue;
      }
      int elevation = f.length > 2 ? Integer.parseInt(f[2].trim()) : h.getBaseHeight();
      int upper = f.length > 3 ? Integer.parseInt(f[3].trim()) : 0;
      String[] drawn = f[1].trim().split("/", 2);  // "Dirt Road/Woods": a road through woods
      Location c = new Location(h.getName(), 0, new Terrain(drawn[0].trim()));
      h.setAround(drawn.length > 1 ? new Terrain(drawn[1].trim()) : null);
      Location l = c;
      for (int level = 1; level <= upper; level++) {
        Location up = new Location(h.getName() + " Level " + level, level, c.getTerrain());
        l.setUp(up);
        l = up;
      }
      h.set(elevation, c);
    }
    return m;
  }

  /** The default one-board test map (see {@link #board}). */
  public static Map testMap() {
    return board(null);
  }

  private Hex named(String name) {
    for (Hex[] column : hexGrid) {
      for (Hex h : column) {
        if (h.getName().equalsIgnoreCase(name)) {
          return h;
        }
      }
    }
    return null;
  }

  /** As VASL's: pixels between column centres and between row centres. */
  public double getHexWidth() {
    return HEX_WIDTH;
  }

  public double getHexHeight() {
    return HEX_HEIGHT;
  }

  /** As VASL's for a geomorphic board: A1's centre dot (x 0: column A's centres lie on the boards' left edge). */
  public double getA1CenterX() {
    return 0.0;
  }

  public double getA1CenterY() {
    return HEX_HEIGHT / 2;
  }

  /** As VASL's: the size of the terrain grid in pixels (1800 × 645 for one geomorphic board). */
  public int getGridWidth() {
    return (int) Math.round((width - 1) * HEX_WIDTH);
  }

  public int getGridHeight() {
    return (int) Math.round(height * HEX_HEIGHT);
  }

  /**
   * As VASL's {@code getGridTerrain(x, y)}: the terrain drawn at that pixel, null off the map. Here: the terrain of
   * the nearest hex centre's Location, or the terrain drawn around its centre strip (see {@link #board}).
   */
  public Terrain getGridTerrain(int x, int y) {
    if (x < 0 || y < 0 || x >= getGridWidth() || y >= getGridHeight()) {
      return null;
    }
    Hex best = null;
    double bestD = Double.MAX_VALUE;
    int c0 = (int) Math.round(x / HEX_WIDTH);
    for (int col = Math.max(0, c0 - 1); col <= Math.min(width - 1, c0 + 1); col++) {
      for (Hex h : hexGrid[col]) {
        double dx = x - h.centerX();
        double dy = y - h.centerY();
        if (dx * dx + dy * dy < bestD) {
          bestD = dx * dx + dy * dy;
          best = h;
        }
      }
    }
    if (best == null) {
      return null;
    }
    if (best.around() != null && Math.abs(x - best.centerX()) > 8) {
      return best.around();
    }
    return best.getCenterLocation().getTerrain();
  }

  public int getWidth() {
    return width;
  }

  public int getHeight() {
    return height;
  }

  /** As VASL's: {@code hexGrid[col][row]}, no bounds check (ArrayIndexOutOfBoundsException past a column's end). */
  public Hex getHex(int col, int row) {
    return hexGrid[col][row];
  }

  /** As VASL's: the first hex of that name (ambiguous on a map of several boards, whose names repeat). */
  public Hex getHex(String name) {
    return named(name);
  }

  /** As VASL's {@code insertMap(Map, Hex upperLeft)}: copies the board's hexes (names too) from that grid position. */
  public boolean insertMap(Map board, Hex upperLeft) {
    int hexCol = upperLeft.getColumnNumber();
    int hexRow = upperLeft.getRowNumber();
    for (int x = 0; x < board.hexGrid.length && x + hexCol < hexGrid.length; x++) {
      for (int y = 0; y < board.hexGrid[x].length && y + hexRow < hexGrid[x + hexCol].length; y++) {
        hexGrid[x + hexCol][y + hexRow].copy(board.getHex(x, y));
      }
    }
    return true;
  }

  /** As VASL's {@code flip()} (a reversed board): the hexes turned 180°, keeping their names, in new grid places. */
  public void flip() {
    Hex[][] flipped = new Hex[width][];
    for (int x = 0; x < width; x++) {
      flipped[x] = new Hex[hexGrid[x].length];
      for (int y = 0; y < flipped[x].length; y++) {
        Hex from = hexGrid[width - x - 1][hexGrid[width - x - 1].length - y - 1];
        Hex place = hexGrid[x][y];
        flipped[x][y] = new Hex(place.getColumnNumber(), place.getRowNumber(), from.getName(), place.centerX(),
            place.centerY(), from.getBaseHeight(), from.getCenterLocation());
        flipped[x][y].setAround(from.around());
      }
    }
    for (int x = 0; x < width; x++) {
      hexGrid[x] = flipped[x];
    }
  }
}
