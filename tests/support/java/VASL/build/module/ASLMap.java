package VASL.build.module;

/** Test stand-in with VASL's class name and its getVASLMap() method (see tests/support/java/README.md). */
public class ASLMap extends VASSAL.build.module.Map {
  private final VASL.LOS.Map.Map vaslMap = VASL.LOS.Map.Map.testMap();

  public VASL.LOS.Map.Map getVASLMap() {
    return vaslMap;
  }
}
