package VASL.LOS.Map;

/**
 * Test stand-in with VASL's method names (see tests/support/java/README.md):
 * columns A–J, rows 1–6; Woods in C2–E3, a Wooden Building with one upper
 * level in G4, Brush in H2, the rest Open Ground, hill (elevation 1) in J.
 */
public class Map {
  private final int width = 10;
  private final int height = 6;
  private final Hex[][] hexes = new Hex[width][height + 1];

  public static Map testMap() {
    return new Map();
  }

  Map() {
    for (int col = 0; col < width; col++) {
      for (int row = 1; row <= height; row++) {
        String name = String.valueOf((char) ('A' + col)) + row;
        String t = "Open Ground";
        if (col >= 2 && col <= 4 && row >= 2 && row <= 3) {
          t = "Woods";
        }
        if (name.equals("G4")) {
          t = "Wooden Building, 1 Level";
        }
        if (name.equals("H2")) {
          t = "Brush";
        }
        int elev = col == 9 ? 1 : 0;
        Location c = new Location(name, 0, new Terrain(t));
        if (name.equals("G4")) {
          c.setUp(new Location(name + " Level 1", 1, new Terrain(t)));
        }
        hexes[col][row] = new Hex(name, elev, c);
      }
    }
  }

  public int getWidth() {
    return width;
  }

  public int getHeight() {
    return height;
  }

  public Hex getHex(int col, int row) {
    return hexes[col][row];
  }
}
