package VASL.LOS.Map;

import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.List;

/**
 * Test stand-in with VASL 6.7.x's method names (see tests/support/java/README.md), built the way VASL 6.7.x builds
 * its map: one map-wide grid of hexes and one map-wide pixel grid first ({@link #Map(int, int, int, int)}), then
 * each board added in turn ({@link #addBoard}, what {@code BoardArchive.addLOSDatatoVASLMap} does): the board's
 * pixels copied from its crop's corner to the board's place, a reversed board's pixels then turned within its
 * rectangle ({@link #flipTerrainAndElevationGrids}), and the grid hexes from the one under the board's corner on
 * given the board's hex names, ground levels and Locations. A hex's pixels therefore lie where the board's own
 * geometry puts them, which need not be under the map-wide grid's hex (a crop off the hex centres). VASL's
 * {@link #insertMap} and {@link #flip} are here for the VASL of 2020's map building (the variant "2020" of
 * tests/support/standin_variants.py).
 * The terrain is a test description (see {@link #board}), not VASL data.
 */
public class Map {
  /** Pixels between column centres and between row centres of a geomorphic board (VASL's GEO_HEX_WIDTH/HEIGHT). */
  public static final double HEX_WIDTH = 56.25;
  public static final double HEX_HEIGHT = 64.5;
  /** A geomorphic board's LOS grid in pixels (VASL's GEO_IMAGE_WIDTH/HEIGHT). */
  public static final int BOARD_WIDTH = 1800;
  public static final int BOARD_HEIGHT = 645;

  private final int width;
  private final int height;
  private final Hex[][] hexGrid;
  private final int gridWidth;
  private final int gridHeight;
  private char[][] terrainGrid;
  private final Terrain[] terrainList = new Terrain[256];
  private final java.util.Map<String, Integer> codes = new java.util.HashMap<>();

  /**
   * As VASL 6.7.x's map-wide {@code Map(...)}: {@code width} × {@code height} hexes of Open Ground (VASL's geomorphic
   * naming: A1, B0…; {@code hexGrid[col]} holds {@code height + col % 2} hexes), A1's centre at (0, 32.25), and a
   * pixel grid of {@code gridWidth} × {@code gridHeight} pixels of Open Ground.
   */
  public Map(int width, int height, int gridWidth, int gridHeight) {
    this.width = width;
    this.height = height;
    this.gridWidth = gridWidth;
    this.gridHeight = gridHeight;
    hexGrid = new Hex[width][];
    Terrain open = terrain("Open Ground");
    for (int col = 0; col < width; col++) {
      hexGrid[col] = new Hex[height + (col % 2)];
      for (int row = 0; row < height + (col % 2); row++) {
        String name = geoName(col, row);
        hexGrid[col][row] = new Hex(col, row, name, centreX(col), centreY(col, row), 0, new Location(name, 0, open));
      }
    }
    terrainGrid = new char[gridWidth][gridHeight];
  }

  private double centreX(int col) {
    // as VASL's getHexCenterPoint: pulled in to the grid's last pixel column at the right edge
    return Math.min(HEX_WIDTH * col, gridWidth - 1);
  }

  private static double centreY(int col, int row) {
    return HEX_HEIGHT / 2 + HEX_HEIGHT * row - HEX_HEIGHT / 2 * (col % 2);
  }

  /** The terrain of that name, one object per name (VASL's terrainList holds each terrain type once). */
  private Terrain terrain(String name) {
    Integer code = codes.get(name);
    if (code == null) {
      code = codes.size();
      codes.put(name, code);
      terrainList[code] = new Terrain(name);
    }
    return terrainList[code];
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
   * One whole geomorphic board (33 × 10 hexes, 1800 × 645 pixels) described by {@code spec}: lines {@code
   * HEX<TAB>TERRAIN[<TAB>ELEVATION[<TAB>UPPER LEVELS]]}; unlisted hexes are Open Ground at level 0; lines starting
   * with {@code #} are not hexes (the board's crop, read by the ASLBoard stand-in). {@code TERRAIN} may be {@code
   * CENTRE/AROUND} ({@code Dirt Road/Woods}): the centre's terrain in a strip 16 px wide down the hex, the other
   * drawn around it. A null spec gives the default test board: Woods in C2–E3, a Wooden Building with one upper
   * level in G4, Brush in H2, a hill (level 1) in column J.
   */
  public static Map board(String spec) {
    Map m = new Map(33, 10, BOARD_WIDTH, BOARD_HEIGHT);
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
      int level = f.length > 2 ? Integer.parseInt(f[2].trim()) : h.level();
      int upper = f.length > 3 ? Integer.parseInt(f[3].trim()) : 0;
      String[] drawn = f[1].trim().split("/", 2);  // "Dirt Road/Woods": a road through woods
      Location c = new Location(h.getName(), 0, m.terrain(drawn[0].trim()));
      h.setAround(drawn.length > 1 ? m.terrain(drawn[1].trim()) : null);
      Location l = c;
      for (int k = 1; k <= upper; k++) {
        Location up = new Location(h.getName() + " Level " + k, k, c.getTerrain());
        l.setUp(up);
        l = up;
      }
      h.set(level, c);
    }
    m.drawPixels();
    return m;
  }

  /**
   * As VASL 6.7.x's {@code VASLBoard.applyColorSSRulestoTerrainElevationGrids} then {@code applyColorSSRulestoHexGrid}
   * for the board's SSR rules of type {@code terrainMap} (SharedBoardMetadata's {@code LOSSSRule}s, in the order of
   * the SSR's tokens): every pixel of the rule's terrain takes the other terrain, and so does every Location of a
   * hex whose terrain it was (VASL re-reads the hexes from the changed pixels; the stand-in's hexes are painted
   * whole, so the two agree). {@code rules}: token → {from, to}; tokens without such a rule change nothing.
   */
  public void applyColorSSRules(String tokens, java.util.Map<String, String[]> rules) {
    for (String token : tokens.trim().split("\\s+")) {
      String[] rule = rules.get(token);
      if (rule == null) {
        continue;
      }
      Integer from = codes.get(rule[0]);
      if (from == null) {
        continue;  // no pixel of that terrain on this board
      }
      int to = codeOf(terrain(rule[1]));
      for (char[] column : terrainGrid) {
        for (int y = 0; y < column.length; y++) {
          if (column[y] == from) {
            column[y] = (char) to;
          }
        }
      }
      for (Hex[] column : hexGrid) {
        for (Hex h : column) {
          if (h.around() != null && h.around().getName().equals(rule[0])) {
            h.setAround(terrain(rule[1]));
          }
          Location c = h.getCenterLocation();
          if (c.getTerrain().getName().equals(rule[0])) {
            Location mapped = new Location(c.getName(), c.level(), terrain(rule[1]));
            Location l = mapped;
            for (Location u = c.getUpLocation(); u != null; u = u.getUpLocation()) {
              Location up = new Location(u.getName(), u.level(),
                  u.getTerrain().getName().equals(rule[0]) ? terrain(rule[1]) : u.getTerrain());
              l.setUp(up);
              l = up;
            }
            h.set(h.level(), mapped);
          }
        }
      }
    }
  }

  /**
   * As VASL 6.7.x's {@code ASLMap.adjustLOSForOverlays} for one overlay picture, in part: the picture's top left lies
   * at hex1's snap point less the overlay's origin hex's (both VASSAL's rounded hex centres of the board), and every
   * opaque pixel whose colour is one of {@code colours} (SharedBoardMetadata's colours with a terrain: RGB →
   * terrain name) gives the board's pixel under it that terrain; then each hex whose centre sample (one pixel right
   * of and above its centre dot, as 6.7.x's {@code Hex.getnearcenterLocationTerrain}) the overlay changed takes
   * that terrain at its centre (VASL re-reads every hex from the pixels). Not copied: the nearest colour of a colour
   * without terrain, transparent pixels beside the art, levels, the hex pass's hillocks and inherent fill.
   */
  public void applyOverlay(java.awt.image.BufferedImage picture, String hex1, String origin,
                           java.util.Map<Integer, String> colours) {
    Hex at = named(hex1);
    Hex from = named(origin);
    if (at == null || from == null) {
      return;
    }
    int ox = (int) Math.floor(at.centerX() + 0.5) - (int) Math.floor(from.centerX() + 0.5);
    int oy = (int) Math.floor(at.centerY() + 0.5) - (int) Math.floor(from.centerY() + 0.5);
    boolean[][] changed = new boolean[gridWidth][gridHeight];
    for (int px = 0; px < picture.getWidth(); px++) {
      for (int py = 0; py < picture.getHeight(); py++) {
        int argb = picture.getRGB(px, py);
        String name = (argb >>> 24) == 0 ? null : colours.get(argb & 0xFFFFFF);
        int x = ox + px;
        int y = oy + py;
        if (name != null && x >= 0 && y >= 0 && x < gridWidth && y < gridHeight) {
          terrainGrid[x][y] = (char) codeOf(terrain(name));
          changed[x][y] = true;
        }
      }
    }
    for (Hex[] column : hexGrid) {
      for (Hex h : column) {
        int x = Math.min(gridWidth - 1, (int) h.centerX() + 1);
        int y = Math.max(0, (int) h.centerY() - 1);
        if (changed[x][y]) {
          Location c = h.getCenterLocation();
          h.set(h.level(), new Location(c.getName(), c.level(), terrainList[terrainGrid[x][y]]));
          h.setAround(null);
        }
      }
    }
  }

  /** The default one-board test map (see {@link #board}). */
  public static Map testMap() {
    return board(null);
  }

  /** A whole board's pixels, each drawn as {@link #drawnAt} says. */
  private void drawPixels() {
    for (int x = 0; x < gridWidth; x++) {
      for (int y = 0; y < gridHeight; y++) {
        terrainGrid[x][y] = (char) codeOf(drawnAt(x, y));
      }
    }
  }

  /** The terrain drawn at a pixel: the nearest hex centre's, or that drawn around the hex's centre strip. */
  private Terrain drawnAt(int x, int y) {
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
    return best.around() != null && Math.abs(x - best.centerX()) > 8 ? best.around()
        : best.getCenterLocation().getTerrain();
  }

  private int codeOf(Terrain t) {
    terrain(t.getName());
    return codes.get(t.getName());
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

  /**
   * What VASL 6.7.x's {@code BoardArchive.addLOSDatatoVASLMap} does with one board, on the test description:
   * {@code board}'s pixels within {@code crop} (board pixels; width or height -1: to the board's edge) copied to
   * {@code place} (the board's rectangle in this map's pixels) from the crop's corner on, turned within {@code place}
   * if {@code reversed}; then the grid hexes from the one under the place's corner ({@link #gridToHex}) get the
   * board's hexes from the crop's first column and row on (turned 180° on a reversed board): names, ground levels,
   * Locations; a crop of rows gives only its rows (as many as its height holds hex heights, and the half hex of
   * each odd column).
   */
  public void addBoard(Map board, Rectangle crop, Rectangle place, boolean reversed) {
    int cx = Math.max(0, crop.x);
    int cy = Math.max(0, crop.y);
    int cw = crop.width <= 0 ? board.gridWidth - cx : crop.width;
    int ch = crop.height <= 0 ? board.gridHeight - cy : crop.height;
    for (int x = cx; x < Math.min(board.gridWidth, cx + cw); x++) {
      for (int y = cy; y < Math.min(board.gridHeight, cy + ch); y++) {
        int mx = x - cx + place.x;
        int my = y - cy + place.y;
        if (mx >= 0 && my >= 0 && mx < gridWidth && my < gridHeight) {
          terrainGrid[mx][my] = (char) codeOf(board.terrainList[board.terrainGrid[x][y]]);
        }
      }
    }
    if (reversed) {
      flipTerrainAndElevationGrids(place);
    }
    // the board's columns and rows within the crop: those whose centres lie in it
    int startCol = (int) Math.ceil(cx / HEX_WIDTH - 1e-9);
    int endCol = Math.min(board.width - 1, (int) Math.floor((cx + cw) / HEX_WIDTH + 1e-9));
    int startRow = (int) Math.round(cy / HEX_HEIGHT);
    // a crop of rows keeps its rows only (VASL 6.7.x: height = end row − start row, plus the odd columns' half hex)
    int cropRows = crop.height <= 0 ? Integer.MAX_VALUE : (int) Math.round(ch / HEX_HEIGHT);
    Hex first = gridToHex(place.x, place.y);
    if (first == null) {
      return;
    }
    int mapcol = first.getColumnNumber();
    int maprow = first.getRowNumber();
    int cols = endCol - startCol + 1;
    for (int i = 0; i < cols; i++) {
      int col = reversed ? endCol - i : startCol + i;
      Hex[] from = board.hexGrid[col];
      int rows = Math.min(from.length - startRow, cropRows == Integer.MAX_VALUE ? cropRows : cropRows + col % 2);
      for (int j = 0; j < rows; j++) {
        int row = reversed ? from.length - 1 - j : startRow + j;
        int gc = mapcol + i;
        int gr = maprow + j;
        if (gc < hexGrid.length && gr < hexGrid[gc].length) {
          hexGrid[gc][gr].copy(from[row]);
        }
      }
    }
  }

  /**
   * As VASL 6.7.x's {@code flipTerrainAndElevationGrids(board)}: the pixels within the board's rectangle turned
   * 180° (x → left + width − 1 − (x − left)).
   */
  public void flipTerrainAndElevationGrids(Rectangle place) {
    char[][] turned = new char[gridWidth][];
    for (int x = 0; x < gridWidth; x++) {
      turned[x] = terrainGrid[x].clone();
    }
    for (int x = Math.max(0, place.x); x < Math.min(gridWidth, place.x + place.width); x++) {
      for (int y = Math.max(0, place.y); y < Math.min(gridHeight, place.y + place.height); y++) {
        int fx = place.width + place.x - (x - place.x) - 1;
        int fy = place.height + place.y - (y - place.y) - 1;
        if (fx >= 0 && fy >= 0 && fx < gridWidth && fy < gridHeight) {
          turned[x][y] = terrainGrid[fx][fy];
        }
      }
    }
    terrainGrid = turned;
  }

  /**
   * The hex holding pixel (x, y), or null off the grid: the column whose centre is nearest in x, then the row as VASL's
   * {@code gridToHex} counts it there (an even column's hexes from y = 0 on, an odd one's half a hex higher); enough
   * for a board's corner, where the map is built from.
   */
  public Hex gridToHex(int x, int y) {
    if (x < 0 || y < 0 || x >= gridWidth || y >= gridHeight) {
      return null;
    }
    int col = Math.min(width - 1, (int) Math.round(x / HEX_WIDTH));
    int row = (int) (col % 2 == 0 ? y / HEX_HEIGHT : (y + HEX_HEIGHT / 2) / HEX_HEIGHT);
    return row < hexGrid[col].length ? hexGrid[col][row] : null;
  }

  /** As VASL's: pixels between column centres and between row centres. */
  public double getHexWidth() {
    return HEX_WIDTH;
  }

  public double getHexHeight() {
    return HEX_HEIGHT;
  }

  /** As VASL 6.7.x's map: A1's centre dot on the map-wide grid (x 0: column A's centres on the boards' left edge). */
  public double getA1CenterX() {
    return 0.0;
  }

  public double getA1CenterY() {
    return HEX_HEIGHT / 2;
  }

  public int getGridWidth() {
    return gridWidth;
  }

  public int getGridHeight() {
    return gridHeight;
  }

  /** As VASL's {@code getGridTerrain(x, y)}: the terrain at that pixel of the pixel grid, null off the map. */
  public Terrain getGridTerrain(int x, int y) {
    if (x < 0 || y < 0 || x >= gridWidth || y >= gridHeight) {
      return null;
    }
    return terrainList[terrainGrid[x][y]];
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

  /**
   * As VASL's {@code insertMap(Map, Hex upperLeft)} (how the VASL of 2020 builds its map; VASL 6.7.x adds boards with
   * {@link #addBoard}): the board's hexes, names included, copied over this map's from that grid place on; the grid
   * place and centre stay this map's.
   */
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

  /**
   * As VASL's {@code flip()} (a reversed board, before {@link #insertMap}): the hexes turned 180°, keeping their
   * names, in new grid places.
   */
  public void flip() {
    Hex[][] flipped = new Hex[width][];
    for (int x = 0; x < width; x++) {
      flipped[x] = new Hex[hexGrid[x].length];
      for (int y = 0; y < flipped[x].length; y++) {
        Hex from = hexGrid[width - x - 1][hexGrid[width - x - 1].length - y - 1];
        Hex place = hexGrid[x][y];
        flipped[x][y] = new Hex(place.getColumnNumber(), place.getRowNumber(), from.getName(), place.centerX(),
            place.centerY(), from.level(), from.getCenterLocation());
        flipped[x][y].setAround(from.around());
      }
    }
    for (int x = 0; x < width; x++) {
      hexGrid[x] = flipped[x];
    }
  }
}
