package aslfire;

/**
 * Notices a Python that went away while nobody pressed a button: pings the listener every {@code aslfire.pingMs}
 * milliseconds (2000 by default), and at once when the gateway sees one of Python's connections close
 * ({@link #poke}). A ping that fails drops that listener ({@link FireBridge#lostListener}); a slow one is waited for.
 */
final class ConnectionWatch {
  static final long PERIOD_MS = Long.getLong("aslfire.pingMs", 2000L);

  private final FireBridge bridge;
  private final Object lock = new Object();
  private boolean poked;
  private volatile Thread thread;

  ConnectionWatch(FireBridge bridge) {
    this.bridge = bridge;
  }

  void start() {
    Thread t = new Thread(this::run, "aslfire-connection-watch");
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  void stop() {
    Thread t = thread;
    thread = null;
    if (t != null) {
      t.interrupt();
    }
  }

  /** Check now (a connection from Python closed). */
  void poke() {
    synchronized (lock) {
      poked = true;
      lock.notifyAll();
    }
  }

  private void run() {
    while (thread == Thread.currentThread()) {
      try {
        synchronized (lock) {
          if (!poked) {
            lock.wait(PERIOD_MS);
          }
          poked = false;
        }
      }
      catch (InterruptedException e) {
        return;
      }
      PythonListener l = bridge.getListener();
      if (l == null) {
        continue;
      }
      try {
        l.ping();
      }
      catch (RuntimeException e) {
        bridge.lostListener(l, "it stopped answering");
      }
    }
  }
}
