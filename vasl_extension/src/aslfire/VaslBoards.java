package aslfire;

import java.awt.Rectangle;
import java.lang.reflect.Field;
import java.util.Enumeration;
import java.util.Iterator;

/**
 * What VASL adds to a board (overlays, SSR terrain changes, crop, version),
 * reached by reflection so the extension needs no VASL classes to compile or
 * load: a board whose class has {@code getOverlays()} (VASL's
 * {@code ASLBoard}) gives
 * {@code {"state", "version", "crop", "ssr", "legacy", "overlays": [...]}} ({@code legacy}: VASL's
 * {@code isLegacyBoard()}, a board without LOS data, which turns VASL's terrain model off); any other
 * board gives {@code null}. Each part that cannot be read is {@code null};
 * nothing here throws out of the snapshot.
 */
final class VaslBoards {
  private static final String SSR_OVERLAY = "SSROverlay";

  private VaslBoards() {
  }

  private static String tryField(Object target, VaslApi.Member m) {
    try {
      Field f = target.getClass().getField(m.now);
      Object v = f.get(target);
      return v == null ? null : v.toString();
    }
    catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /** True if the object's class or a superclass is VASL's SSROverlay (an overlay an SSR puts on the board). */
  static boolean isSsrOverlay(Object overlay) {
    for (Class<?> k = overlay.getClass(); k != null; k = k.getSuperclass()) {
      if (SSR_OVERLAY.equals(k.getSimpleName())) {
        return true;
      }
    }
    return false;
  }

  /** True if the board's class has VASL's {@code getOverlays()} (an ASLBoard). */
  static boolean isVaslBoard(Object board) {
    return board != null && VaslApi.method(board, VaslApi.Member.BOARD_OVERLAYS) != null;
  }

  /** Appends the board's VASL part, or {@code null} for a board that is not VASL's. */
  static void append(StringBuilder sb, Object board) {
    int mark = sb.length();
    try {
      if (!isVaslBoard(board)) {
        sb.append("null");
        return;
      }
      sb.append("{\"state\":");
      Json.quote(sb, Snapshot.str(VaslApi.tryCall(board, VaslApi.Member.BOARD_STATE)));
      sb.append(",\"version\":");
      Json.quote(sb, Snapshot.str(VaslApi.tryCall(board, VaslApi.Member.BOARD_VERSION)));
      sb.append(",\"crop\":");
      appendCrop(sb, VaslApi.tryCall(board, VaslApi.Member.BOARD_CROP));
      sb.append(",\"ssr\":");
      Json.quote(sb, Snapshot.str(VaslApi.tryCall(board, VaslApi.Member.BOARD_SSR)));
      Object legacy = VaslApi.tryCall(board, VaslApi.Member.BOARD_LEGACY);
      sb.append(",\"legacy\":").append(legacy instanceof Boolean ? legacy.toString() : "null");
      sb.append(",\"overlays\":");
      appendOverlays(sb, VaslApi.tryCall(board, VaslApi.Member.BOARD_OVERLAYS));
      sb.append('}');
    }
    catch (RuntimeException | LinkageError e) {
      sb.setLength(mark);
      sb.append("null");
    }
  }

  /** VASL's crop rectangle in board pixels, or null when the board is not cropped (width and height not positive). */
  private static void appendCrop(StringBuilder sb, Object crop) {
    if (!(crop instanceof Rectangle)) {
      sb.append("null");
      return;
    }
    Rectangle r = (Rectangle) crop;
    if (r.width <= 0 && r.height <= 0) {
      sb.append("null");
      return;
    }
    sb.append("{\"x\":").append(r.x).append(",\"y\":").append(r.y)
      .append(",\"width\":").append(r.width).append(",\"height\":").append(r.height).append('}');
  }

  private static void appendOverlays(StringBuilder sb, Object all) {
    Iterator<?> it;
    if (all instanceof Enumeration) {
      Enumeration<?> e = (Enumeration<?>) all;
      it = new Iterator<Object>() {
        @Override
        public boolean hasNext() {
          return e.hasMoreElements();
        }

        @Override
        public Object next() {
          return e.nextElement();
        }
      };
    }
    else if (all instanceof Iterable) {
      it = ((Iterable<?>) all).iterator();
    }
    else {
      sb.append("null");
      return;
    }
    int mark = sb.length();
    try {
      sb.append('[');
      boolean first = true;
      for (int guard = 0; it.hasNext() && guard < 1000; guard++) {
        Object o = it.next();
        if (o == null) {
          continue;
        }
        if (!first) {
          sb.append(',');
        }
        first = false;
        sb.append("{\"name\":");
        Json.quote(sb, Snapshot.str(VaslApi.tryCall(o, VaslApi.Member.OVERLAY_NAME)));
        sb.append(",\"hex1\":");
        Json.quote(sb, tryField(o, VaslApi.Member.OVERLAY_HEX1));
        sb.append(",\"hex2\":");
        Json.quote(sb, tryField(o, VaslApi.Member.OVERLAY_HEX2));
        // the same flag is getPreserveElevation() in some VASL versions, getPersistElevation() in newer ones; the
        // 2020 fork's Overlay has neither (null)
        Object keep = VaslApi.tryCall(o, VaslApi.Member.OVERLAY_ELEVATION);
        sb.append(",\"preserveElevation\":").append(keep instanceof Boolean ? keep.toString() : "null");
        sb.append(",\"ssr\":").append(isSsrOverlay(o));
        sb.append('}');
      }
      sb.append(']');
    }
    catch (RuntimeException | LinkageError e) {
      sb.setLength(mark);
      sb.append("null");
    }
  }
}
