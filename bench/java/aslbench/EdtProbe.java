package aslbench;

import java.awt.EventQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The bench's probe of VASSAL's Swing thread (never shipped): loaded as a Java agent ({@code -javaagent:}, which puts
 * it on VASSAL's class path whatever the checkout's harness), started through py4j. A thread posts an event to the
 * Swing thread every {@link #PERIOD_MS} ms and measures how late it runs: the longest lateness is the longest the
 * Swing thread was held (by one event, or by events queued back to back), to within the period.
 */
public final class EdtProbe {
  static final long PERIOD_MS = 2;
  private static volatile Thread thread;
  private static long longestNs;
  private static long samples;
  /** While the Swing thread is held past {@link #SAMPLE_AFTER_MS}: its stack every few ms, counted by its frames. */
  static final long SAMPLE_AFTER_MS = 20;
  private static final java.util.Map<String, Integer> STACKS = new java.util.HashMap<>();
  private static volatile Thread edt;
  private static volatile boolean sampling;

  private EdtProbe() {
  }

  /** The agent's entry: nothing runs until {@link #start} (the Swing thread must not start before VASSAL's own). */
  public static void premain(String args) {
  }

  /** The longest event of each kind the Swing thread dispatched ({@link Timing}), in ns, since the last reset. */
  private static final java.util.Map<String, Long> LONGEST_EVENT = new java.util.TreeMap<>();

  /**
   * VASSAL's event queue, timing each event it dispatches by kind: {@code bridge} (a call of the extension's,
   * {@code aslfire}, on the Swing thread: a snapshot, a slice of a read, an apply), {@code repaint} (Swing painting
   * and laying out, VASSAL's map and chat after a change), {@code test hooks}, {@code other}.
   */
  static final class Timing extends EventQueue {
    @Override
    protected void dispatchEvent(java.awt.AWTEvent e) {
      String what = e.toString();
      String kind = what.contains("aslfire") ? "bridge" : what.contains("aslbridgetest") ? "test hooks"
          : what.contains("RepaintManager") || e instanceof java.awt.event.PaintEvent ? "repaint" : "other";
      long t0 = System.nanoTime();
      try {
        super.dispatchEvent(e);
      }
      finally {
        long ns = System.nanoTime() - t0;
        synchronized (EdtProbe.class) {
          LONGEST_EVENT.merge(kind, ns, Math::max);
        }
      }
    }
  }

  /** The longest event of each kind since the last call ({@code kind ms, …}); resets them. */
  public static synchronized String longestEvents() {
    StringBuilder sb = new StringBuilder();
    for (java.util.Map.Entry<String, Long> e : LONGEST_EVENT.entrySet()) {
      sb.append(sb.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue() / 1000000)
        .append(" ms");
    }
    LONGEST_EVENT.clear();
    return sb.toString();
  }

  /** Starts the probe (once); the longest lateness counts from now. */
  public static synchronized void start() {
    longestNs = 0;
    samples = 0;
    STACKS.clear();
    LONGEST_EVENT.clear();
    if (thread != null) {
      return;
    }
    java.awt.Toolkit.getDefaultToolkit().getSystemEventQueue().push(new Timing());
    Thread t = new Thread(EdtProbe::run, "aslbench-edt-probe");
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  /** The longest the Swing thread was held since the last call (or {@link #start}), in microseconds; resets it. */
  public static synchronized long longestUs() {
    long out = longestNs / 1000;
    longestNs = 0;
    samples = 0;
    return out;
  }

  /** How many events the probe posted since the last {@link #longestUs}. */
  public static synchronized long samples() {
    return samples;
  }

  private static synchronized void record(long lateNs) {
    longestNs = Math.max(longestNs, lateNs);
    samples++;
  }

  /**
   * The stacks of the Swing thread sampled while it was held, most frequent first, each cut to its {@code top} frames
   * and the {@code root} frames above the event's dispatch (what the event was: a repaint, a py4j call…), since the
   * last call; resets them.
   */
  public static synchronized String stacks(int top, int root, int most) {
    java.util.Map<String, Integer> cut = new java.util.HashMap<>();
    for (java.util.Map.Entry<String, Integer> e : STACKS.entrySet()) {
      java.util.List<String> frames = java.util.Arrays.asList(e.getKey().split("\n"));
      int end = frames.size();
      for (int i = 0; i < frames.size(); i++) {
        if (frames.get(i).contains("EventQueue.dispatchEventImpl") || frames.get(i).contains("InvocationEvent.dispatch")
            || frames.get(i).contains("Component.dispatchEventImpl")) {
          end = i;
          break;
        }
      }
      StringBuilder k = new StringBuilder();
      for (int i = 0; i < Math.min(top, end); i++) {
        k.append(frames.get(i)).append('\n');
      }
      if (end - root > top) {
        k.append("  …\n");
      }
      for (int i = Math.max(top, end - root); i < end; i++) {
        k.append(frames.get(i)).append('\n');
      }
      cut.merge(k.toString(), e.getValue(), Integer::sum);
    }
    STACKS.clear();
    StringBuilder sb = new StringBuilder();
    cut.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(most)
        .forEach(e -> sb.append(e.getValue()).append(" ×\n").append(e.getKey()).append('\n'));
    return sb.toString();
  }

  /** Whether to sample the Swing thread's stacks while it is held (off by default: sampling costs it a little). */
  public static void sampleStacks(boolean on) {
    sampling = on;
  }

  private static void sample() {
    Thread t = edt;
    if (t == null || !sampling) {
      return;
    }
    StringBuilder sb = new StringBuilder();
    for (StackTraceElement f : t.getStackTrace()) {
      sb.append("  ").append(f).append('\n');
    }
    synchronized (EdtProbe.class) {
      STACKS.merge(sb.toString(), 1, Integer::sum);
    }
  }

  private static void run() {
    while (true) {
      final long posted = System.nanoTime();
      final CountDownLatch ran = new CountDownLatch(1);
      EventQueue.invokeLater(() -> {
        edt = Thread.currentThread();
        record(System.nanoTime() - posted);
        ran.countDown();
      });
      try {
        if (!ran.await(SAMPLE_AFTER_MS, TimeUnit.MILLISECONDS)) {
          while (!ran.await(5, TimeUnit.MILLISECONDS)) {
            sample();
            record(System.nanoTime() - posted);  // still held: the lateness so far counts already
          }
        }
        Thread.sleep(PERIOD_MS);
      }
      catch (InterruptedException e) {
        return;
      }
    }
  }
}
