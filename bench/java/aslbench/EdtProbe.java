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

  private EdtProbe() {
  }

  /** The agent's entry: nothing runs until {@link #start} (the Swing thread must not start before VASSAL's own). */
  public static void premain(String args) {
  }

  /** Starts the probe (once); the longest lateness counts from now. */
  public static synchronized void start() {
    longestNs = 0;
    samples = 0;
    if (thread != null) {
      return;
    }
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

  private static void run() {
    while (true) {
      final long posted = System.nanoTime();
      final CountDownLatch ran = new CountDownLatch(1);
      EventQueue.invokeLater(() -> {
        record(System.nanoTime() - posted);
        ran.countDown();
      });
      try {
        while (!ran.await(1, TimeUnit.SECONDS)) {
          record(System.nanoTime() - posted);  // still held: the lateness so far counts already
        }
        Thread.sleep(PERIOD_MS);
      }
      catch (InterruptedException e) {
        return;
      }
    }
  }
}
