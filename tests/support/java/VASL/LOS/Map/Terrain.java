package VASL.LOS.Map;

/** Test stand-in with VASL's method names (see tests/support/java/README.md). */
public class Terrain {
  private final String name;

  public Terrain(String name) {
    this.name = name;
  }

  public String getName() {
    return name;
  }
}
