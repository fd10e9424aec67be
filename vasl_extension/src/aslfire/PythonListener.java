package aslfire;

/**
 * Implemented in Python (py4j callback): VASSAL's buttons call it.
 * {@code onButton} returns a one-line message for VASSAL's chat (or "" for none).
 */
public interface PythonListener {
  String onButton(String action);

  String ping();
}
