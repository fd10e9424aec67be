package aslfire;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import javax.net.ServerSocketFactory;

/** Server sockets whose accepted connections have TCP_NODELAY (no delayed-ACK stalls on large replies). */
final class NoDelayServerSocketFactory extends ServerSocketFactory {
  private static final class NoDelayServerSocket extends ServerSocket {
    NoDelayServerSocket() throws IOException {
      super();
    }

    @Override
    public Socket accept() throws IOException {
      Socket s = super.accept();
      s.setTcpNoDelay(true);
      return s;
    }
  }

  @Override
  public ServerSocket createServerSocket() throws IOException {
    return new NoDelayServerSocket();
  }

  @Override
  public ServerSocket createServerSocket(int port) throws IOException {
    ServerSocket s = new NoDelayServerSocket();
    s.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    return s;
  }

  @Override
  public ServerSocket createServerSocket(int port, int backlog) throws IOException {
    ServerSocket s = new NoDelayServerSocket();
    s.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), backlog);
    return s;
  }

  @Override
  public ServerSocket createServerSocket(int port, int backlog, InetAddress addr) throws IOException {
    ServerSocket s = new NoDelayServerSocket();
    s.bind(new java.net.InetSocketAddress(addr == null ? InetAddress.getLoopbackAddress() : addr, port), backlog);
    return s;
  }
}
