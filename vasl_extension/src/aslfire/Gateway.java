package aslfire;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

import javax.net.SocketFactory;

import py4j.CallbackClient;
import py4j.GatewayServer;
import py4j.reflection.ReflectionUtil;
import py4j.reflection.RootClassLoadingStrategy;

/**
 * The py4j gateway: 127.0.0.1 only, a free port, a random auth token, TCP_NODELAY.
 * Port and token go to a file only the user can read:
 * {@code <VASSAL conf dir>/aslfire/bridge.json} (override: system property
 * {@code aslfire.connectionFile}). Stopped, and the file deleted, with the module.
 */
final class Gateway {
  private final FireBridge bridge;
  private GatewayServer server;
  private Path file;
  private String token;

  Gateway(FireBridge bridge) {
    this.bridge = bridge;
  }

  static Path connectionFile() {
    String p = System.getProperty("aslfire.connectionFile");
    if (p != null && !p.isEmpty()) {
      return new File(p).toPath();
    }
    File conf = VASSAL.Info.getConfDir();
    return new File(new File(conf, "aslfire"), "bridge.json").toPath();
  }

  void start() throws IOException {
    // py4j must find classes through the extension's class loader (it sees VASSAL's too)
    ReflectionUtil.setClassLoadingStrategy(new RootClassLoadingStrategy());
    byte[] raw = new byte[24];
    new SecureRandom().nextBytes(raw);
    token = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    InetAddress lo = InetAddress.getLoopbackAddress();
    server = new GatewayServer.GatewayServerBuilder(new BridgeApi(bridge))
      .javaPort(0)
      .javaAddress(lo)
      .authToken(token)
      .callbackClient(callbackClient(lo))
      .serverSocketFactory(new NoDelayServerSocketFactory())
      .build();
    server.addListener(new py4j.DefaultGatewayServerListener() {
      @Override
      public void connectionStopped(py4j.Py4JServerConnection c) {
        bridge.pythonConnectionClosed();  // a Python killed or closed: its listener is checked at once
      }
    });
    server.start(true);
    writeFile(server.getListeningPort());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      bridge.stopBridgeProcess();  // first: a bridge that saw the gateway close first would look like a crash
      stop();
    }, "aslfire-gateway-stop"));
  }

  /**
   * py4j's callbacks to Python, without its memory management: a Python names its objects p0, p1… afresh, so the
   * finalizer of a listener a closed bridge left behind would tell the bridge connected now to forget its own.
   */
  private CallbackClient callbackClient(InetAddress lo) {
    return new CallbackClient(0, lo, token, CallbackClient.DEFAULT_MIN_CONNECTION_TIME,
        CallbackClient.DEFAULT_MIN_CONNECTION_TIME_UNIT, SocketFactory.getDefault(), false,
        GatewayServer.DEFAULT_READ_TIMEOUT);
  }

  private void writeFile(int port) throws IOException {
    file = connectionFile();
    Path dir = file.getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    String json = "{\"host\":\"127.0.0.1\",\"port\":" + port + ",\"token\":" + Json.quote(token)
        + ",\"pid\":" + ProcessHandle.current().pid() + ",\"module\":"
        + Json.quote(VASSAL.build.GameModule.getGameModule().getGameName()) + ",\"bridge\":"
        + Json.quote(FireBridge.VERSION) + "}\n";
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    try {
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    catch (UnsupportedOperationException e) {
      Files.createFile(tmp);
      File f = tmp.toFile();
      f.setReadable(false, false);
      f.setWritable(false, false);
      f.setReadable(true, true);
      f.setWritable(true, true);
    }
    Files.write(tmp, json.getBytes(StandardCharsets.UTF_8));
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  int port() {
    return server == null ? -1 : server.getListeningPort();
  }

  void resetCallback(int pythonPort) {
    server.resetCallbackClient(InetAddress.getLoopbackAddress(), pythonPort);
  }

  synchronized void stop() {
    GatewayServer s = server;
    server = null;
    if (s != null) {
      try {
        s.shutdown();
      }
      catch (RuntimeException ignored) {
        // shutting down anyway
      }
    }
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      }
      catch (IOException ignored) {
        // a stale file only points at a closed port
      }
      file = null;
    }
  }
}
