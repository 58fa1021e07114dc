import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService

/// The K peers of one `sessionsim peer` process, on one client loop, and their script.
///
/// > Important: Loop-confined: created and driven on the client loop (the command's main
/// > thread reaches it through `EventLoop.runBlocking`).
final class PeerGroup {
  let options: PeerOptions
  let factory: LoopbackLinkFactory
  let minter: TokenMinter
  let peers: [ScriptedPeer]

  /// Makes the peers; the first has `options.role`, and so has the peer at `coTeacher`.
  init(options: PeerOptions, loop: EventLoop, coTeacher: Int? = nil) {
    self.options = options
    factory = LoopbackLinkFactory(
      loop: loop, host: options.host, port: options.port,
      configuration: LoopbackLinkConfiguration(
        heartbeatInterval: options.heartbeat, heartbeatTimeout: 3 * options.heartbeat,
        clientName: options.namePrefix))
    minter = TokenMinter(appKey: options.key, secret: options.secret)
    peers = (0..<options.count).map { index in
      ScriptedPeer(
        index: index, name: "\(options.namePrefix)-\(index + 1)",
        role: index == 0 || index == coTeacher ? options.role : .participant)
    }
    for peer in peers {
      peer.sdk.initialize(
        InitParams(domain: "zoom.us", transport: factory, clock: factory.clock.now))
    }
  }

  private func token(for peer: ScriptedPeer) -> String {
    // One token per peer, as an app server mints one per user (the service bounds the
    // members per token).
    minter.mint(
      sessionName: options.session, role: peer.role, issuedAt: factory.clock.now() / 1_000 - 30,
      tokenID: peer.name)
  }

  /// Starts joining every peer that is out of the session.
  func joinAll() {
    for peer in peers where peer.sdk.getSession() == nil || !peer.isInSession {
      guard peer.state.phase.canJoin else { continue }
      peer.join(session: options.session, token: token(for: peer))
    }
  }

  /// Starts joining one peer.
  func join(_ index: Int) {
    let peer = peers[index]
    guard peer.state.phase.canJoin else { return }
    peer.join(session: options.session, token: token(for: peer))
  }

  /// Whether every peer is in the session.
  var allInSession: Bool { peers.allSatisfy(\.isInSession) }

  /// Whether some peer's join ended in failure (an error or a leave without a join).
  var failedPeers: [ScriptedPeer] {
    peers.filter { !$0.isInSession && ($0.errors.count > 0 || $0.leftCount > 0) }
  }

  /// The user ids of the peers in the session.
  var userIDs: [UserID] { peers.compactMap(\.state.myselfID) }

  // MARK: Scripts

  /// One step of the script; steps come every 100 ms.
  func step(_ number: Int) {
    switch options.script {
    case .quickstart: quickstartStep(number)
    case .classroom: classroomStep(number)
    case .churn: churnStep(number)
    }
  }

  private func quickstartStep(_ number: Int) {
    for peer in peers where peer.isInSession {
      switch (number + peer.index) % 4 {
      case 0: peer.toggleVideo()
      case 2: peer.toggleMute()
      default: break
      }
      if number % 10 == peer.index % 10 { peer.chat("hello from \(peer.name) at step \(number)") }
    }
  }

  private func classroomStep(_ number: Int) {
    guard let teacher = peers.first, teacher.isInSession else { return }
    let students = peers.dropFirst().filter(\.isInSession)
    switch number {
    case 0:
      teacher.sdk.getShareHelper().lockShare(true)
      if let first = students.first, let id = first.state.myselfID {
        _ = teacher.sdk.getUserHelper().makeManager(teacher.user(id))
      }
      teacher.sdk.getShareHelper().startShare(with: teacher.view)
    case 2:
      for student in students {
        guard let owner = teacher.state.myselfID, student.state.shares[owner] != nil else {
          continue
        }
        let helper = student.sdk.getShareHelper().createAnnotationHelper(
          forShareOf: student.user(owner))
        helper?.startAnnotation()
        student.annotation = helper
      }
    case 4:
      teacher.sdk.getAudioHelper().muteAllAudio(true)
    case 6:
      for student in students where student.index % 2 == 0 {
        student.annotation?.stopAnnotation()
      }
    default:
      for student in students where (number + student.index) % 5 == 0 {
        student.toggleVideo()
      }
      if number % 7 == 0, let student = students.randomElement() {
        student.chat("question at step \(number) from \(student.name)")
      }
    }
  }

  private func churnStep(_ number: Int) {
    let movers = peers.dropFirst()
    guard !movers.isEmpty else {
      quickstartStep(number)
      return
    }
    let peer = movers[movers.startIndex + number % movers.count]
    if peer.isInSession {
      peer.sdk.leaveSession(false)
    } else if peer.state.phase.canJoin {
      peer.join(session: options.session, token: token(for: peer))
    }
    for other in peers where other.isInSession && other !== peer && number % 3 == 0 {
      other.toggleVideo()
    }
  }

  // MARK: The end

  /// Whether every peer in the session holds the same shared facts; with the common facts.
  func convergence() -> (converged: Bool, facts: SharedSessionFacts?) {
    let inSession = peers.filter(\.isInSession)
    guard let first = inSession.first, inSession.count == peers.count else { return (false, nil) }
    let facts = first.state.sharedFacts
    return (inSession.allSatisfy { $0.state.sharedFacts == facts }, facts)
  }

  /// Leaves: the first peer ends the session when asked to, everyone else just leaves.
  func leaveAll() {
    for peer in peers where peer.isInSession {
      peer.sdk.leaveSession(options.endSession && peer.index == 0)
    }
  }

  /// Whether no peer is in (or leaving) a session any more.
  var allOut: Bool {
    peers.allSatisfy { !$0.state.phase.acceptsSessionEvents && $0.state.phase != .joining }
  }

  /// Lines summarising the callbacks and the roster.
  func summary() -> [String] {
    var totals: [String: Int] = [:]
    var errors: [String: Int] = [:]
    for peer in peers {
      totals.merge(peer.callbackCounts, uniquingKeysWith: +)
      errors.merge(peer.errors, uniquingKeysWith: +)
    }
    var lines = [
      "callbacks: "
        + totals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
          separator: ", ")
    ]
    if !errors.isEmpty {
      lines.append(
        "errors: "
          + errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
            separator: ", "))
    }
    if let lead = peers.first {
      let roster = lead.state.orderedRoster
      lines.append("roster (\(roster.count)) as \(lead.name) sees it:")
      for user in roster {
        let role =
          switch user.role {
          case .host: "host    "
          case .manager: "manager "
          case .participant: "        "
          }
        var marks: [String] = []
        if user.isVideoOn { marks.append("video") }
        if user.audio.type != .none { marks.append(user.audio.isMuted ? "muted" : "mic on") }
        if user.shareStatus == .started || user.shareStatus == .resumed { marks.append("sharing") }
        lines.append("  \(role)\(user.name) (\(user.id))  \(marks.joined(separator: ", "))")
      }
    }
    return lines
  }
}

/// Loop-confined.
@available(*, unavailable)
extension PeerGroup: Sendable {}
