package VASL.LOS.Map;

/** Test stand-in with VASL's method names (see tests/support/java/README.md). */
public class Location {
  private final String name;
  private final int baseHeight;
  private final Terrain terrain;
  private Location up;
  private Location down;

  public Location(String name, int baseHeight, Terrain terrain) {
    this.name = name;
    this.baseHeight = baseHeight;
    this.terrain = terrain;
  }

  public String getName() {
    return name;
  }

  public int getBaseHeight() {
    return baseHeight;
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
