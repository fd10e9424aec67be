package aslfire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON writer and reader: the bridge exchanges one JSON string per call
 * (a snapshot out, a batch in), so the extension needs no JSON library.
 */
public final class Json {
  private Json() {
  }

  /** Appends {@code s} as a JSON string literal. */
  public static void quote(StringBuilder sb, String s) {
    if (s == null) {
      sb.append("null");
      return;
    }
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': sb.append("\\\""); break;
        case '\\': sb.append("\\\\"); break;
        case '\n': sb.append("\\n"); break;
        case '\r': sb.append("\\r"); break;
        case '\t': sb.append("\\t"); break;
        default:
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          }
          else {
            sb.append(c);
          }
      }
    }
    sb.append('"');
  }

  public static String quote(String s) {
    StringBuilder sb = new StringBuilder();
    quote(sb, s);
    return sb.toString();
  }

  /** Thrown for text that is not JSON; the message says where. */
  public static final class JsonError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    JsonError(String msg) {
      super(msg);
    }
  }

  /** Parses JSON into Map (objects, insertion-ordered), List, String, Long/Double, Boolean or null. */
  public static Object parse(String text) {
    Parser p = new Parser(text);
    p.ws();
    Object v = p.value(0);
    p.ws();
    if (p.i != text.length()) {
      throw new JsonError("unexpected text after the JSON value at character " + p.i);
    }
    return v;
  }

  private static final class Parser {
    final String s;
    int i;

    Parser(String s) {
      this.s = s;
    }

    void ws() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
    }

    JsonError err(String what) {
      return new JsonError("expected " + what + " at character " + i);
    }

    Object value(int depth) {
      if (depth > 64) {
        throw err("less nesting");
      }
      if (i >= s.length()) {
        throw err("a value");
      }
      char c = s.charAt(i);
      if (c == '{') {
        return object(depth);
      }
      if (c == '[') {
        return array(depth);
      }
      if (c == '"') {
        return string();
      }
      if (s.startsWith("true", i)) {
        i += 4;
        return Boolean.TRUE;
      }
      if (s.startsWith("false", i)) {
        i += 5;
        return Boolean.FALSE;
      }
      if (s.startsWith("null", i)) {
        i += 4;
        return null;
      }
      return number();
    }

    Map<String, Object> object(int depth) {
      Map<String, Object> m = new LinkedHashMap<>();
      i++;
      ws();
      if (i < s.length() && s.charAt(i) == '}') {
        i++;
        return m;
      }
      while (true) {
        ws();
        if (i >= s.length() || s.charAt(i) != '"') {
          throw err("a key");
        }
        String k = string();
        ws();
        if (i >= s.length() || s.charAt(i) != ':') {
          throw err("':'");
        }
        i++;
        ws();
        m.put(k, value(depth + 1));
        ws();
        if (i < s.length() && s.charAt(i) == ',') {
          i++;
          continue;
        }
        if (i < s.length() && s.charAt(i) == '}') {
          i++;
          return m;
        }
        throw err("',' or '}'");
      }
    }

    List<Object> array(int depth) {
      List<Object> l = new ArrayList<>();
      i++;
      ws();
      if (i < s.length() && s.charAt(i) == ']') {
        i++;
        return l;
      }
      while (true) {
        ws();
        l.add(value(depth + 1));
        ws();
        if (i < s.length() && s.charAt(i) == ',') {
          i++;
          continue;
        }
        if (i < s.length() && s.charAt(i) == ']') {
          i++;
          return l;
        }
        throw err("',' or ']'");
      }
    }

    String string() {
      StringBuilder sb = new StringBuilder();
      i++;
      while (i < s.length()) {
        char c = s.charAt(i++);
        if (c == '"') {
          return sb.toString();
        }
        if (c == '\\') {
          if (i >= s.length()) {
            break;
          }
          char e = s.charAt(i++);
          switch (e) {
            case 'n': sb.append('\n'); break;
            case 'r': sb.append('\r'); break;
            case 't': sb.append('\t'); break;
            case 'b': sb.append('\b'); break;
            case 'f': sb.append('\f'); break;
            case 'u':
              if (i + 4 > s.length()) {
                throw err("four hex digits");
              }
              try {
                sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
              }
              catch (NumberFormatException ex) {
                throw err("four hex digits");
              }
              i += 4;
              break;
            default: sb.append(e);
          }
        }
        else {
          sb.append(c);
        }
      }
      throw err("a closing quote");
    }

    Object number() {
      int start = i;
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
        i++;
      }
      String t = s.substring(start, i);
      if (t.isEmpty()) {
        throw err("a value");
      }
      try {
        if (t.contains(".") || t.contains("e") || t.contains("E")) {
          return Double.parseDouble(t);
        }
        return Long.parseLong(t);
      }
      catch (NumberFormatException ex) {
        i = start;
        throw err("a number");
      }
    }
  }
}
