package aslfire;

import java.util.List;

import VASSAL.build.module.Chatter;
import VASSAL.command.Command;
import VASSAL.i18n.Resources;

/**
 * A batch's chat lines as ONE chat message (one Swing insert, one entry in the log): each line a line of its own
 * ({@code <br>}), the first followed by the player who pressed. VASSAL's chat and VASL's both allow HTML in a
 * message starting "-"; "|" (VASSAL's quick colour of game messages) and the "msg" class give it the colour of game
 * messages rather than of system ones. The lines themselves are escaped: they show as written. It is VASSAL's own
 * chat command (the other player's VASSAL shows it, with or without the extension); its Undo says the first line,
 * in plain text.
 */
final class ChatMessage extends Chatter.DisplayText {
  private final Chatter chatter;
  private final String firstLine;

  ChatMessage(Chatter chatter, List<String> lines, String player) {
    super(chatter, html(lines, player));
    this.firstLine = plain(lines.isEmpty() ? "" : lines.get(0)) + (player == null || player.isEmpty() ? ""
        : " <" + player + ">");
    this.chatter = chatter;
  }

  @Override
  public Command myUndoCommand() {
    return new Chatter.DisplayText(chatter, Resources.getString("Chatter.undo_message", firstLine));
  }

  static String html(List<String> lines, String player) {
    StringBuilder sb = new StringBuilder("-| <span class=msg>");
    for (int i = 0; i < lines.size(); i++) {
      if (i > 0) {
        sb.append("<br>&nbsp;&nbsp;&nbsp;");
      }
      sb.append(escape(plain(lines.get(i))));
      if (i == 0 && player != null && !player.isEmpty()) {
        sb.append(" &lt;").append(escape(player)).append("&gt;");
      }
    }
    return sb.append("</span>").toString();
  }

  /** A line without the "*" that marks a game message in a chat line of its own. */
  static String plain(String line) {
    return line.replaceFirst("^[*\\s]+", "");
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
