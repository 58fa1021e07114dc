import SessionCore
import SessionService
import SessionTransport

/// Where a run happens: a clock, a way to schedule work on it, links for each peer, the
/// service, and the faults the mode can inject. ``DeterministicWorld`` is the virtual network
/// and clock; `LoopbackWorld` (in `LoopbackSimulation`) is libuv, real sockets and real time.
///
/// The runner touches peers and the service only inside work the world runs (scheduled work
/// and ``perform(_:)``), on the world's one domain: the caller's thread in deterministic mode,
/// the client loop in loopback mode.
///
/// > Important: Each world says which thread owns it; the runner calls ``run(until:)`` and
/// > ``perform(_:)`` from the thread that made the world.
public protocol SimulationWorld: AnyObject {
  /// The mode's name for reports: `deterministic` or `loopback`.
  var modeName: String { get }
  /// Milliseconds since the run started, as the world's clock says (on the world's domain).
  var elapsed: Int64 { get }
  /// The wall time the run's start stands for, in milliseconds since 1970 (tokens use it).
  var epochMilliseconds: Int64 { get }
  /// Runs `work` on the world's domain at `elapsed` milliseconds (at once when past).
  ///
  /// - Parameters:
  ///   - elapsed: When to run it, in milliseconds since the run started.
  ///   - work: The work; it runs on the world's domain.
  func schedule(at elapsed: Int64, _ work: @escaping @Sendable () -> Void)
  /// Lets the world run until its clock reads `elapsed`: every work due by then has run.
  ///
  /// - Parameter elapsed: The clock reading to stop at, in milliseconds since the run started.
  func run(until elapsed: Int64) throws
  /// Runs until nothing is in flight (the world's best knowledge of it), for at most
  /// `limit` milliseconds; returns whether it got there.
  ///
  /// - Parameter limit: The most time to run for, in milliseconds.
  /// - Returns: `true` when nothing was in flight before `limit` ran out, `false` otherwise.
  func settle(limit: Int64) throws -> Bool
  /// Runs `body` on the world's domain and waits for it.
  ///
  /// - Parameter body: The work; it runs on the world's domain.
  /// - Returns: What `body` returned.
  func perform<Result: Sendable>(_ body: @escaping @Sendable () -> Result) throws -> Result
  /// The links a peer's SDK instance uses (on the world's domain).
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: The factory the peer's SDK instance makes its links with.
  func transport(for peer: String) -> any SessionLinkFactory
  /// The media links a peer's SDK instance uses, once ``startMedia()`` ran; `nil` when the
  /// mode has no media plane (on the world's domain).
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: The factory of the peer's media links; `nil` before ``startMedia()`` or in a mode
  ///   with no media plane.
  func mediaTransport(for peer: String) -> (any MediaLinkFactory)?
  /// Gives the service a media plane (and every restarted service after it); returns false
  /// when the mode cannot (on the world's domain).
  ///
  /// - Returns: `true` when the service has a media plane now; `false` when the mode has none.
  func startMedia() -> Bool
  /// The service's media-plane counts so far, if the service lives and has a media plane (on
  /// the world's domain).
  ///
  /// - Returns: The counts; `nil` when the service is down or has no media plane.
  func mediaStatistics() -> MediaPlaneStatistics?
  /// How many of a member's subscriptions the service forwards below their top layer or
  /// paused (``SessionService/MediaRouter/subscriptionsBelowTop(of:)``), if the service lives
  /// and has a media plane (on the world's domain).
  ///
  /// - Parameters:
  ///   - user: The member.
  ///   - name: The session name.
  /// - Returns: The count; `nil` when the service is down or has no media plane.
  func subscriptionsBelowTop(of user: UserID, inSession name: String) -> Int?
  /// The peer's clock in milliseconds since 1970 (on the world's domain).
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: A closure that reads the peer's clock, skew included, in milliseconds since 1970.
  func clock(for peer: String) -> () -> Int64
  /// The service's state of a session, if it lives (on the world's domain).
  ///
  /// - Parameter name: The session name.
  /// - Returns: The service's state of the session; `nil` when the service or the session is not
  ///   live.
  func serviceState(ofSession name: String) -> SessionState?
  /// The service's newest sequence number in a session, if it lives (on the world's domain).
  ///
  /// - Parameter name: The session name.
  /// - Returns: The sequence number of the session's last event; `nil` when the service or the
  ///   session is not live.
  func serviceSequence(ofSession name: String) -> UInt64?
  /// Per peer, the chat messages the service sent on that peer's current, still-open
  /// connection: what the peer's callbacks must have delivered (see the delivery check).
  ///
  /// - Returns: The chat messages each peer's callbacks must have delivered, by peer.
  func expectedChat() -> ExpectedChat
  /// Members of the service's roster of a session whose connection the peer has closed, while
  /// the service still holds it: a ghost member (on the world's domain). Empty in a mode that
  /// cannot see both ends.
  ///
  /// - Parameter name: The session name.
  /// - Returns: Each ghost's user id and the peer that closed its connection, by user id.
  func ghostMembers(ofSession name: String) -> [(user: UserID, peer: String)]
  /// Injects a fault; returns false when the mode cannot (the runner records that).
  ///
  /// - Parameter fault: The fault, its peers resolved to names.
  /// - Returns: `true` when the world applied it; `false` when the mode cannot.
  func inject(_ fault: WorldFault) -> Bool
  /// Sends the world's own record of what happened (network events) to `sink` as it
  /// happens, interleaved with the peers' callbacks; a mode that keeps none never calls it.
  ///
  /// - Parameter sink: Gets one line per network event, on the world's domain.
  func traceNetwork(to sink: @escaping (String) -> Void)
  /// Ends the run: what was still in flight, one line each.
  ///
  /// - Returns: One line per message still in flight or held at the end; empty when none was.
  func finish() -> [String]
  /// Lets go of what the world holds outside the process's memory (loops, sockets), after
  /// the run; a world that holds nothing does nothing.
  func shutdown()
}

/// A fault as a world applies it, peers already resolved to names.
public enum WorldFault: Sendable, Hashable, CustomStringConvertible {
  /// Cut `a` from `b` (both may hold `"service"`); one way blocks only a → b.
  case partition([String], [String], oneWay: Bool)
  /// Heal every partition and release every hold.
  case heal
  /// Hold a direction of a peer's link.
  case hold(String, LinkDirections)
  /// Release it.
  case release(String, LinkDirections)
  /// The peer's node dies.
  case kill(String)
  /// The peer's node lives again (a fresh process).
  case revive(String)
  /// The peer's process stops.
  case pause(String)
  /// It continues.
  case resume(String)
  /// The service dies with its state.
  case killService
  /// A fresh service starts.
  case startService
  /// The peer's clock moves by this many milliseconds (total skew).
  case clockSkew(String, Int64)
  /// The peer's link gets this behaviour in a direction.
  case impair(String, LinkDirections, LinkSpec)

  /// A short description, for logs and reports.
  public var description: String {
    switch self {
    case .partition(let a, let b, let oneWay):
      "partition \(a.joined(separator: ",")) \(oneWay ? "->" : "<->") \(b.joined(separator: ","))"
    case .heal: "heal"
    case .hold(let peer, let direction): "hold \(peer) \(direction.rawValue)"
    case .release(let peer, let direction): "release \(peer) \(direction.rawValue)"
    case .kill(let peer): "kill \(peer)"
    case .revive(let peer): "revive \(peer)"
    case .pause(let peer): "pause \(peer)"
    case .resume(let peer): "resume \(peer)"
    case .killService: "kill service"
    case .startService: "start service"
    case .clockSkew(let peer, let skew): "clock skew \(peer) \(skew) ms"
    case .impair(let peer, let direction, _): "impair \(peer) \(direction.rawValue)"
    }
  }
}

extension SimulationWorld {
  /// No ghost members: a world that cannot see both ends of its connections (over real
  /// sockets a client's close is the kernel's; the check runs in deterministic mode).
  ///
  /// - Parameter name: The session name.
  /// - Returns: Empty.
  public func ghostMembers(ofSession name: String) -> [(user: UserID, peer: String)] { [] }

  /// Nothing to let go of.
  public func shutdown() {}
}

/// A world that can say when the service first sent each event: what a run's report measures
/// callback latency from. Both modes' worlds can; a world of another kind reports none.
///
/// > Important: Called on the world's domain, like the rest of the world.
package protocol EventSendTimes: SimulationWorld {
  /// Starts noting when the service first sends each event, for ``eventSentAt(sequence:)``.
  func noteEventSendTimes()
  /// When the service first sent the event with this sequence number, once
  /// ``noteEventSendTimes()`` ran.
  ///
  /// - Parameter sequence: The event's sequence number in the scenario's session.
  /// - Returns: Milliseconds since the run started; `nil` when not noted.
  func eventSentAt(sequence: UInt64) -> Int64?
}
