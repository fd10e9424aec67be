package aslfire;

import java.awt.BorderLayout;
import java.awt.GridLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.swing.JButton;
import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;

import VASSAL.build.GameModule;

/**
 * A small dialog Python describes (title and fields: text, choice or check box, each with its label and value)
 * and reads back: the player's answers as a JSON object, or null when cancelled. Which fields a rule asks for is
 * Python's; the dialog only shows them. The dialog is named "aslfire-form", its fields "aslfire-form-KEY".
 */
final class FormDialog {
  /** Longest wait for the player's answer, in minutes. */
  static final long WAIT_MINUTES = Long.getLong("aslfire.formMinutes", 30L);

  private FormDialog() {
  }

  /** Shows the form described by {@code specJson} and waits for the player's answer (null: cancelled). */
  @SuppressWarnings("unchecked")
  static String ask(String specJson) throws Exception {
    java.util.Map<String, Object> spec = (java.util.Map<String, Object>) Json.parse(specJson);
    CompletableFuture<String> answer = new CompletableFuture<>();
    SwingUtilities.invokeLater(() -> {
      try {
        show(spec, answer);
      }
      catch (RuntimeException e) {
        answer.completeExceptionally(e);
      }
    });
    return answer.get(WAIT_MINUTES, TimeUnit.MINUTES);
  }

  @SuppressWarnings("unchecked")
  private static void show(java.util.Map<String, Object> spec, CompletableFuture<String> answer) {
    GameModule gm = GameModule.getGameModule();
    JDialog d = new JDialog(gm == null ? null : gm.getPlayerWindow(), String.valueOf(spec.get("title")), false);
    d.setName("aslfire-form");
    JPanel fields = new JPanel(new GridLayout(0, 2, 6, 4));
    java.util.Map<String, JComponent> inputs = new LinkedHashMap<>();
    for (Object o : (List<Object>) spec.get("fields")) {
      java.util.Map<String, Object> f = (java.util.Map<String, Object>) o;
      String key = String.valueOf(f.get("key"));
      Object value = f.get("value");
      JComponent c;
      if ("bool".equals(f.get("kind"))) {
        c = new JCheckBox("", Boolean.TRUE.equals(value));
      }
      else if (f.get("choices") instanceof List) {
        JComboBox<String> box = new JComboBox<>();
        for (Object ch : (List<Object>) f.get("choices")) {
          box.addItem(String.valueOf(ch));
        }
        if (value != null) {
          box.setSelectedItem(String.valueOf(value));
        }
        c = box;
      }
      else {
        c = new JTextField(value == null ? "" : String.valueOf(value), 12);
      }
      c.setName("aslfire-form-" + key);
      Object tip = f.get("help");
      if (tip != null) {
        c.setToolTipText(String.valueOf(tip));
      }
      fields.add(new JLabel(String.valueOf(f.get("label"))));
      fields.add(c);
      inputs.put(key, c);
    }
    JButton ok = new JButton(spec.get("ok") == null ? "OK" : String.valueOf(spec.get("ok")));
    ok.setName("aslfire-form-ok");
    JButton cancel = new JButton("Cancel");
    cancel.setName("aslfire-form-cancel");
    ok.addActionListener(e -> {
      answer.complete(answers(inputs));
      d.dispose();
    });
    cancel.addActionListener(e -> {
      answer.complete(null);
      d.dispose();
    });
    d.addWindowListener(new java.awt.event.WindowAdapter() {
      @Override
      public void windowClosed(java.awt.event.WindowEvent e) {
        answer.complete(null);
      }
    });
    JPanel buttons = new JPanel();
    buttons.add(ok);
    buttons.add(cancel);
    d.getContentPane().add(fields, BorderLayout.CENTER);
    d.getContentPane().add(buttons, BorderLayout.SOUTH);
    d.getRootPane().setDefaultButton(ok);
    d.pack();
    d.setLocationRelativeTo(d.getOwner());
    d.setVisible(true);
  }

  private static String answers(java.util.Map<String, JComponent> inputs) {
    StringBuilder sb = new StringBuilder("{");
    List<String> parts = new ArrayList<>();
    for (java.util.Map.Entry<String, JComponent> e : inputs.entrySet()) {
      StringBuilder p = new StringBuilder();
      Json.quote(p, e.getKey());
      p.append(':');
      JComponent c = e.getValue();
      if (c instanceof JCheckBox) {
        p.append(((JCheckBox) c).isSelected());
      }
      else if (c instanceof JComboBox) {
        Json.quote(p, String.valueOf(((JComboBox<?>) c).getSelectedItem()));
      }
      else {
        Json.quote(p, ((JTextField) c).getText().trim());
      }
      parts.add(p.toString());
    }
    sb.append(String.join(",", parts)).append('}');
    return sb.toString();
  }
}
