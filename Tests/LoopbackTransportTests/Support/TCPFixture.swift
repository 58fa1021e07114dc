import CLibUV
import Testing

@testable import LoopbackTransport

#if canImport(Glibc)
  import Glibc
#endif

/// A server loop with a listener on 127.0.0.1:0 that records (and optionally echoes) what its
/// connections receive, and a separate client loop.
final class TCPFixture: Sendable {
  let server: EventLoop
  let client: EventLoop
  let port: UInt16
  let listener: LoopBound<TCPListener>
  /// Frames every accepted connection received, in arrival order.
  let serverFrames = Recorder<[UInt8]>()
  /// Close reasons of accepted connections.
  let serverCloses = Recorder<CloseReason>()
  /// Accepted connections, in accept order.
  let accepted = Recorder<LoopBound<TCPConnection>>()

  init(configuration: TCPConfiguration = TCPConfiguration(), echo: Bool = false) throws {
    server = try EventLoop(name: "test-server")
    client = try EventLoop(name: "test-client")
    let (serverFrames, serverCloses, accepted) = (
      self.serverFrames, self.serverCloses, self.accepted
    )
    let server = self.server
    listener = try server.sync {
      let listener = try TCPListener(loop: server, configuration: configuration) { connection in
        connection.onFrame = { frame in
          serverFrames.append(Array(frame))
          if echo { connection.send(frame: frame) }
        }
        connection.onClose = { serverCloses.append($0) }
        accepted.append(LoopBound(connection, loop: server))
      }
      return LoopBound(listener, loop: server)
    }
    port = try server.sync { [listener] in listener.value.localPort }
  }

  /// Connects a `TCPConnection` from the client loop and waits until it is connected.
  func connect(configuration: TCPConfiguration = TCPConfiguration()) throws -> Peer {
    let frames = Recorder<[UInt8]>()
    let closes = Recorder<CloseReason>()
    let connected = Latch()
    let (client, port) = (self.client, self.port)
    let connection = try client.sync {
      let connection = try TCPConnection.connect(
        loop: client, port: port, configuration: configuration)
      connection.onConnect = { connected.signal() }
      connection.setFrameHandler { frames.append($0) }
      connection.onClose = { closes.append($0) }
      return LoopBound(connection, loop: client)
    }
    #expect(connected.wait())
    return Peer(connection: connection, frames: frames, closes: closes)
  }

  /// Shuts both loops down and expects them to close cleanly.
  func shutdown(sourceLocation: SourceLocation = #_sourceLocation) {
    let clientReport = client.shutdown()
    let serverReport = server.shutdown()
    #expect(clientReport.isClean, sourceLocation: sourceLocation)
    #expect(serverReport.isClean, sourceLocation: sourceLocation)
  }

  /// A client-side connection and what it received.
  struct Peer: Sendable {
    let connection: LoopBound<TCPConnection>
    let frames: Recorder<[UInt8]>
    let closes: Recorder<CloseReason>

    /// Sends frames from the client loop, all in one loop turn.
    func send(_ payloads: [[UInt8]]) throws {
      let connection = self.connection
      let sent = try connection.loop.sync {
        payloads.allSatisfy { connection.value.send(frame: $0) }
      }
      #expect(sent)
    }

    /// Bytes sent that the other side's kernel has not acknowledged yet (`SIOCOUTQ`): 0 once
    /// everything sent sits in the receiver's socket, read or not.
    func unacknowledgedBytes() throws -> Int {
      let connection = self.connection
      return try connection.loop.sync {
        var descriptor: uv_os_fd_t = -1
        let handle = UnsafeMutableRawPointer(connection.value.handle)
          .assumingMemoryBound(to: uv_handle_t.self)
        guard uv_fileno(handle, &descriptor) == 0 else { return -1 }
        var queued: CInt = 0
        guard ioctl(descriptor, UInt(TIOCOUTQ), &queued) == 0 else { return -1 }
        return Int(queued)
      }
    }
  }
}
