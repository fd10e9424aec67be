package VASL.LOS.Map;

/**
 * Test stand-in with VASL 6.7.x's method names (see tests/support/java/README.md): a Location's level within its
 * hex is {@code getLevelInHex()} (the VASL of 2020 called it {@code getBaseHeight()}: the variant "2020" of
 * tests/support/standin_variants.py renames it).
 */
public class Location {
  private final String name;
  private final int levelInHex;
  private final Terrain terrain;
  private Location up;
  private Location down;

  public Location(String name, int levelInHex, Terrain terrain) {
    this.name = name;
    this.levelInHex = levelInHex;
    this.terrain = terrain;
  }

  public String getName() {
    return name;
  }

  public int getLevelInHex() {
    return levelInHex;
  }

  /** The level within the hex, for the stand-in's own use (whatever VASL calls it). */
  int level() {
    return levelInHex;
  }

  public Terrain getTerrain() {
    return terrain;
  }

  public Location getUpLocation() {
    return up;
  }

  public Location getDownLocation() {
    return down;
  }

  void setUp(Location l) {
    up = l;
    l.down = this;
  }
}
