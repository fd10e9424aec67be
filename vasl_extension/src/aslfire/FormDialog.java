package aslfire;

import java.awt.BorderLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import javax.swing.JButton;
import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;
import javax.swing.Timer;

import VASSAL.build.GameModule;

/**
 * A small dialog Python describes (title and fields: text, choice or check box, each with its label and value)
 * and reads back: the player's answers as a JSON object, or null when cancelled. Which fields a rule asks for is
 * Python's; the dialog only shows them. A field with {@code "when": {"key": K, "values": [...]}} shows only while
 * field K's value is one of those. The dialog is named "aslfire-form", its fields "aslfire-form-KEY".
 *
 * <p>Python opens a form ({@link #open}) and asks for its answer in short calls ({@link #poll}), so no call stays
 * open while the player thinks: an answer given after any wait is read. A form nobody asks about for
 * {@link #STALE_MS} (Python stopped or was disconnected) closes itself and says so in this player's chat.
 */
final class FormDialog {
  /** Longest wait for the player's answer through {@link #ask}, in minutes (the one-call way of older bridges). */
  static final long WAIT_MINUTES = Long.getLong("aslfire.formMinutes", 30L);
  /** A form not polled for this long closes itself: the Python side no longer waits for it. */
  static final long STALE_MS = Long.getLong("aslfire.formStaleMs", 20000L);

  private static final AtomicLong NEXT = new AtomicLong(1);
  private static final java.util.Map<String, Form> OPEN = new ConcurrentHashMap<>();

  /** One open form: the player's answer (null: cancelled) and when Python last asked for it. */
  private static final class Form {
    final CompletableFuture<String> answer = new CompletableFuture<>();
    volatile long polled = System.currentTimeMillis();
  }

  private FormDialog() {
  }

  /** Shows the form described by {@code specJson} and waits for the player's answer (null: cancelled). */
  static String ask(String specJson) throws Exception {
    Form f = show(specJson, false);
    return f.answer.get(WAIT_MINUTES, TimeUnit.MINUTES);
  }

  /** Shows the form described by {@code specJson}; returns its id for {@link #poll}. */
  static String open(String specJson) throws Exception {
    String id = "form-" + NEXT.getAndIncrement();
    Form f = show(specJson, true);
    OPEN.put(id, f);
    f.answer.whenComplete((a, e) -> OPEN.remove(id));
    return id;
  }

  /**
   * The form's state after waiting at most {@code waitMs} for the player: {"state":"open"}, {"state":"answered",
   * "answers":{…}}, {"state":"cancelled"}, or {"state":"gone"} for a form this extension does not know (closed
   * by itself, or never opened).
   */
  static String poll(String id, long waitMs) throws Exception {
    Form f = OPEN.get(id);
    if (f == null) {
      return "{\"state\":\"gone\"}";
    }
    f.polled = System.currentTimeMillis();
    String a;
    try {
      a = f.answer.get(Math.max(0L, Math.min(waitMs, 10000L)), TimeUnit.MILLISECONDS);
    }
    catch (TimeoutException e) {
      f.polled = System.currentTimeMillis();
      return "{\"state\":\"open\"}";
    }
    return a == null ? "{\"state\":\"cancelled\"}" : "{\"state\":\"answered\",\"answers\":" + a + "}";
  }

  @SuppressWarnings("unchecked")
  private static Form show(String specJson, boolean polled) throws Exception {
    java.util.Map<String, Object> spec = (java.util.Map<String, Object>) Json.parse(specJson);
    Form form = new Form();
    SwingUtilities.invokeLater(() -> {
      try {
        build(spec, form, polled);
      }
      catch (RuntimeException e) {
        form.answer.completeExceptionally(e);
      }
    });
    return form;
  }

  @SuppressWarnings("unchecked")
  private static void build(java.util.Map<String, Object> spec, Form form, boolean polled) {
    CompletableFuture<String> answer = form.answer;
    GameModule gm = GameModule.getGameModule();
    JDialog d = new JDialog(gm == null ? null : gm.getPlayerWindow(), String.valueOf(spec.get("title")), false);
    d.setName("aslfire-form");
    JPanel fields = new JPanel(new GridBagLayout());
    java.util.Map<String, JComponent> inputs = new LinkedHashMap<>();
    java.util.Map<String, JLabel> labels = new LinkedHashMap<>();
    java.util.Map<String, java.util.Map<String, Object>> when = new LinkedHashMap<>();
    int row = 0;
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
        c = new JTextField(value == null ? "" : String.valueOf(value), 14);
      }
      c.setName("aslfire-form-" + key);
      Object tip = f.get("help");
      if (tip != null) {
        c.setToolTipText(String.valueOf(tip));
      }
      JLabel label = new JLabel(String.valueOf(f.get("label")));
      label.setName("aslfire-form-label-" + key);
      label.setLabelFor(c);
      if (tip != null) {
        label.setToolTipText(String.valueOf(tip));
      }
      GridBagConstraints g = new GridBagConstraints();
      g.gridy = row++;
      g.insets = new Insets(2, 6, 2, 6);
      g.anchor = GridBagConstraints.LINE_START;
      g.gridx = 0;
      fields.add(label, g);
      g.gridx = 1;
      g.fill = GridBagConstraints.HORIZONTAL;
      g.weightx = 1;
      fields.add(c, g);
      inputs.put(key, c);
      labels.put(key, label);
      if (f.get("when") instanceof java.util.Map) {
        when.put(key, (java.util.Map<String, Object>) f.get("when"));
      }
    }
    Runnable showHide = () -> {
      boolean changed = false;
      for (java.util.Map.Entry<String, java.util.Map<String, Object>> e : when.entrySet()) {
        boolean on = shown(e.getValue(), inputs);
        if (inputs.get(e.getKey()).isVisible() != on) {
          inputs.get(e.getKey()).setVisible(on);
          labels.get(e.getKey()).setVisible(on);
          changed = true;
        }
      }
      if (changed && d.isDisplayable()) {
        d.pack();
      }
    };
    for (JComponent c : inputs.values()) {
      if (c instanceof JComboBox) {
        ((JComboBox<?>) c).addItemListener(e -> showHide.run());
      }
      else if (c instanceof JCheckBox) {
        ((JCheckBox) c).addItemListener(e -> showHide.run());
      }
    }
    showHide.run();
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
    if (polled) {
      Timer watch = new Timer(1000, null);
      watch.addActionListener(e -> {
        if (answer.isDone()) {
          watch.stop();
        }
        else if (System.currentTimeMillis() - form.polled > STALE_MS) {
          watch.stop();
          answer.complete(null);
          d.dispose();
          FireBridge.say("- ASL fire bridge: the dialog \"" + spec.get("title") + "\" closed itself: Python stopped "
              + "waiting for it (not connected); nothing was rolled. Press the button again once Python runs.");
        }
      });
      watch.start();
    }
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

  /** Whether a field with the condition {@code cond} ({"key": K, "values": [...]}) shows now. */
  @SuppressWarnings("unchecked")
  private static boolean shown(java.util.Map<String, Object> cond, java.util.Map<String, JComponent> inputs) {
    JComponent other = inputs.get(String.valueOf(cond.get("key")));
    if (other == null || !(cond.get("values") instanceof List)) {
      return true;
    }
    String v = valueOf(other);
    for (Object want : (List<Object>) cond.get("values")) {
      if (String.valueOf(want).equals(v)) {
        return true;
      }
    }
    return false;
  }

  private static String valueOf(JComponent c) {
    if (c instanceof JCheckBox) {
      return String.valueOf(((JCheckBox) c).isSelected());
    }
    if (c instanceof JComboBox) {
      return String.valueOf(((JComboBox<?>) c).getSelectedItem());
    }
    return ((JTextField) c).getText().trim();
  }

  /** The answers of the fields shown (a hidden field does not apply, and is not answered). */
  private static String answers(java.util.Map<String, JComponent> inputs) {
    StringBuilder sb = new StringBuilder("{");
    List<String> parts = new ArrayList<>();
    for (java.util.Map.Entry<String, JComponent> e : inputs.entrySet()) {
      JComponent c = e.getValue();
      if (!c.isVisible()) {
        continue;
      }
      StringBuilder p = new StringBuilder();
      Json.quote(p, e.getKey());
      p.append(':');
      if (c instanceof JCheckBox) {
        p.append(((JCheckBox) c).isSelected());
      }
      else {
        Json.quote(p, valueOf(c));
      }
      parts.add(p.toString());
    }
    sb.append(String.join(",", parts)).append('}');
    return sb.toString();
  }
}
