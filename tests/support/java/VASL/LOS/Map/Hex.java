package VASL.LOS.Map;

/** Test stand-in with VASL's method names (see tests/support/java/README.md). */
public class Hex {
  private final String name;
  private final int baseHeight;
  private final Location center;

  public Hex(String name, int baseHeight, Location center) {
    this.name = name;
    this.baseHeight = baseHeight;
    this.center = center;
  }

  public String getName() {
    return name;
  }

  public int getBaseHeight() {
    return baseHeight;
  }

  public Location getCenterLocation() {
    return center;
  }
}
