package aslfire;

import VASSAL.command.Command;

/**
 * Records which phase the bridge processed (e.g. "T2.1 AFPh"), so a second press
 * of the same button does not roll again. A Command: it is sent to the other
 * players, saved with the game, and reverted by VASSAL's Undo with the rest of
 * the phase's changes.
 */
final class PhaseMark extends Command {
  static final String PREFIX = "aslfire-phase\t";
  private final FireBridge owner;
  final String key;

  FireBridge owner() {
    return owner;
  }
  final String previous;

  PhaseMark(FireBridge owner, String key, String previous) {
    this.owner = owner;
    this.key = key == null ? "" : key;
    this.previous = previous == null ? "" : previous;
  }

  @Override
  protected void executeCommand() {
    owner.setProcessed(key);
  }

  @Override
  protected Command myUndoCommand() {
    return new PhaseMark(owner, previous, key);
  }

  String encode() {
    return PREFIX + key.replace('\t', ' ') + "\t" + previous.replace('\t', ' ');
  }

  static PhaseMark decode(FireBridge owner, String s) {
    if (!s.startsWith(PREFIX)) {
      return null;
    }
    String[] parts = s.substring(PREFIX.length()).split("\t", -1);
    return new PhaseMark(owner, parts[0], parts.length > 1 ? parts[1] : "");
  }
}
