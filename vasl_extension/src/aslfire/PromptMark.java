package aslfire;

import VASSAL.build.GameModule;
import VASSAL.command.Command;

/**
 * Records that the bridge prompted (or ran by itself) a phase the Phase Track passed without its button (e.g.
 * "PT3 AFPh"), with the chat line that said so: kept in the game, so neither a restarted bridge nor the other
 * player's bridge prompts it again. Sent to the other players and saved with the game ({@link
 * FireBridge#getRestoreCommand}), but never logged: it is not part of VASSAL's Undo, whose next step stays the
 * player's own move of the Phase Track.
 */
final class PromptMark extends Command {
  static final String PREFIX = "aslfire-prompted\t";
  private final FireBridge owner;
  final String line;
  final java.util.List<String> keys;

  PromptMark(FireBridge owner, java.util.Collection<String> keys, String line) {
    this.owner = owner;
    this.keys = new java.util.ArrayList<>(keys);
    this.line = line == null ? "" : line;
  }

  FireBridge owner() {
    return owner;
  }

  @Override
  protected void executeCommand() {
    owner.addPrompted(keys);
    if (!line.isEmpty()) {
      GameModule gm = GameModule.getGameModule();
      if (gm != null && gm.getChatter() != null) {
        gm.getChatter().show(line);
      }
    }
  }

  @Override
  protected Command myUndoCommand() {
    return null;
  }

  String encode() {
    StringBuilder sb = new StringBuilder(PREFIX).append(line.replace('\t', ' ').replace('\n', ' '));
    for (String k : keys) {
      sb.append('\t').append(k.replace('\t', ' '));
    }
    return sb.toString();
  }

  static PromptMark decode(FireBridge owner, String s) {
    if (!s.startsWith(PREFIX)) {
      return null;
    }
    String[] parts = s.substring(PREFIX.length()).split("\t", -1);
    java.util.List<String> keys = new java.util.ArrayList<>();
    for (int i = 1; i < parts.length; i++) {
      if (!parts[i].isEmpty()) {
        keys.add(parts[i]);
      }
    }
    return new PromptMark(owner, keys, parts[0]);
  }
}
