import LoopbackTransport
import SessionCore
import SessionTransport

/// The relay benchmark's members on the media plane: one raw ``UDPSocket`` each, sending
/// pre-encoded packets of its own streams to a relay "as fast as the relay takes them", and
/// counting the copies the relay forwards to it.
///
/// Flow control is a window counted by receipts: every packet a member sends is expected to
/// come back as one copy per subscriber (its video to its watchers, loud audio to everyone
/// else, quiet audio to nobody), and a member sends its next *round* (its video packet and its
/// audio packet) only while the copies it still waits for are fewer than `window` rounds'
/// worth. So at most `window` rounds per member are in flight, and neither the relay's socket
/// nor the members' kernel buffers overflow into loss at saturation. Each packet carries its
/// sender's index in the frame id, which no relay reads, so a receipt finds its sender with
/// one load.
///
/// A copy that is lost never comes back; a repeating timer (``stallCheck``) forgives a member
/// whose receipts stood still since its last run while it waited (``forgiven`` counts the
/// copies), so a loss stalls one member for a tick or two instead of stopping it.
///
/// > Important: Loop-confined: made, driven and closed on the client loop's thread.
final class RelayBlaster {
  /// One member's socket, its round and its window's counts.
  struct Member {
    let socket: UDPSocket
    /// The datagrams one round sends: the member's video packet, then its audio packet.
    var round: [[UInt8]] = []
    /// The copies one round should bring back.
    var copiesPerRound = 0
    /// Copies expected back so far (forgiven ones included).
    var expected = 0
    /// Copies that came back.
    var receipts = 0
    /// ``receipts`` at the last check of the stall timer.
    var receiptsAtCheck = 0
  }

  /// Milliseconds between two checks for stalled members: many times the longest a relay
  /// takes to work through every member's window, so that only lost copies are forgiven.
  static let stallCheck: UInt64 = 50

  /// The byte offset of the frame id in a packet datagram (`Docs/WireProtocol.md`).
  static let frameIDOffset = 12

  private(set) var members: [Member]
  /// Rounds in flight per member.
  let window: Int
  /// Copies received by every member together since the last ``start(target:)``.
  private(set) var received = 0
  /// Copies given up on by the stall timer since the last ``start(target:)``.
  private(set) var forgiven = 0
  /// Datagrams that were not a packet of this benchmark's (too short, an unknown sender).
  private(set) var strangers = 0
  private var target: UInt16 = 0
  private var running = false
  private let timer: UVTimer

  /// Binds one socket per member on `loop`.
  ///
  /// - Parameters:
  ///   - loop: The client loop; the caller is on its thread.
  ///   - count: Members.
  ///   - window: Rounds in flight per member, at least 1.
  ///   - configuration: The sockets' buffers.
  init(loop: EventLoop, count: Int, window: Int, configuration: UDPConfiguration) throws {
    self.window = max(1, window)
    members = try (0..<count).map { _ in
      Member(socket: try UDPSocket(loop: loop, configuration: configuration))
    }
    timer = try UVTimer(loop: loop)
    for (index, member) in members.enumerated() {
      // Strong, as a relay's: closing the sockets (``close()``, or the loop's shutdown) drops
      // the handlers and with them the cycle.
      member.socket.onDatagram = { _, bytes in
        if bytes.count == Self.checkSize, bytes[1] == MediaDatagram.Kind.check.rawValue {
          self.onCheck(index, Array(bytes))
          return
        }
        self.receive(bytes)
      }
    }
  }

  /// A return-path check's sealed size.
  static let checkSize = 10 + MediaDatagram.trailerSize
  /// Each member's media authenticator (set once the credentials are known).
  var authenticators: [MediaAuthenticator] = []
  /// Called with a member's index and a return-path check it received (while binding).
  var onCheck: (Int, [UInt8]) -> Void = { _, _ in }

  /// Every member's port, by index.
  var ports: [UInt16] { members.map(\.socket.localPort) }

  /// Sets member `index`'s round and the copies it brings back.
  func load(_ index: Int, round: [[UInt8]], copiesPerRound: Int) {
    members[index].round = round
    members[index].copiesPerRound = max(1, copiesPerRound)
  }

  /// Sends one datagram from member `index`'s socket (a bind, say), outside the window.
  func send(_ bytes: [UInt8], from index: Int, to port: UInt16) {
    _ = try? members[index].socket.send(bytes, to: port)
  }

  /// Zeroes the counts and starts blasting at `target`: every member fills its window.
  func start(target: UInt16) {
    self.target = target
    received = 0
    forgiven = 0
    for index in members.indices {
      members[index].expected = 0
      members[index].receipts = 0
      members[index].receiptsAtCheck = 0
    }
    running = true
    for index in members.indices { topUp(index) }
    // Strong: ``stop()`` cancels the timer, which drops the callback.
    timer.schedule(
      afterMilliseconds: Self.stallCheck, repeatingEvery: Self.stallCheck
    ) { self.checkStalls() }
  }

  /// Stops sending; what is in flight still arrives and is counted.
  func stop() {
    running = false
    timer.cancel()
  }

  /// Closes every socket and the timer.
  func close() {
    stop()
    timer.close()
    for member in members { member.socket.close() }
  }

  @inline(__always)
  private func receive(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= Self.frameIDOffset + 4 else {
      strangers += 1
      return
    }
    let sender = Int(
      UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: Self.frameIDOffset, as: UInt32.self)))
    guard sender < members.count else {
      strangers += 1
      return
    }
    received &+= 1
    members[sender].receipts &+= 1
    if running { topUp(sender) }
  }

  /// Sends rounds from member `index` while its window has room.
  @inline(__always)
  private func topUp(_ index: Int) {
    let copies = members[index].copiesPerRound
    let limit = window * copies
    while members[index].expected - members[index].receipts + copies <= limit {
      members[index].expected &+= copies
      let socket = members[index].socket
      for datagram in members[index].round {
        datagram.withUnsafeBytes { buffer in _ = try? socket.send(lent: buffer, to: target) }
      }
    }
  }

  /// Forgives members whose receipts stood still for a tick while they waited: their missing
  /// copies were lost (or never forwarded), and they send again.
  private func checkStalls() {
    guard running else { return }
    for index in members.indices {
      let member = members[index]
      defer { members[index].receiptsAtCheck = members[index].receipts }
      guard member.receipts == member.receiptsAtCheck, member.expected > member.receipts else {
        continue
      }
      forgiven += member.expected - member.receipts
      members[index].expected = member.receipts
      topUp(index)
    }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension RelayBlaster: Sendable {}
