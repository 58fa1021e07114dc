extension SessionState {
  /// The most subsessions a session commits at once (the SDK's documented limit).
  public static let maxSubSessions = 50
  /// The longest subsession name, in characters (the SDK documents none; this engine's limit).
  public static let maxSubSessionNameCharacters = 64
  /// The longest subsession name, in UTF-8 bytes.
  public static let maxSubSessionNameBytes = 256
  /// The longest subsession id the service gives, in UTF-8 bytes.
  public static let maxSubSessionIDBytes = 24
  /// The most UTF-8 bytes of all a list's names together, so that a committed list adds little
  /// to every member's snapshot (``SessionSnapshot``): 50 names of 40 bytes fit.
  public static let maxSubSessionNamesBytes = 2_048

  /// Applies a subsession event.
  ///
  /// Status changes follow the SDK's lifecycle: a list is committed (replacing any earlier
  /// one) while the subsessions are not started; it is started, stopped (everyone returns to
  /// the main session, the list stays) and started again, or withdrawn while not started.
  /// A member moves only while the subsessions are started, and only once the service has
  /// stopped their share and their annotation: a share never crosses a subsession's border.
  mutating func reduceSubSession(_ change: SubSessionEvent, _ event: SessionEvent)
    throws(EventRejection)
  {
    switch change {
    case .statusChanged(let status, let list):
      try changeSubSessionStatus(to: status, list: list, event)

    case .userMoved(let user, let destination):
      _ = try indexOf(user, event)
      let current = subSessions.rooms[user]
      guard current != destination else {
        throw reject(.noChange, event, "\(user) is already there")
      }
      if let destination {
        guard subSessions.isStarted else {
          throw reject(.subSessionNotAllowed, event, "the subsessions are not started")
        }
        guard subSessions.subSession(withID: destination) != nil else {
          throw reject(.subSessionNotAllowed, event, "no subsession \(destination)")
        }
      }
      guard shares[user] == nil, annotatedShare(of: user) == nil else {
        throw reject(.subSessionNotAllowed, event, "\(user) moves while sharing or annotating")
      }
      subSessions.rooms[user] = destination

    case .broadcast(let sender, _):
      _ = try indexOf(sender, event)

    case .helpRequested(let user, let subSessionID):
      _ = try indexOf(user, event)
      guard subSessions.subSession(withID: subSessionID) != nil else {
        throw reject(.subSessionNotAllowed, event, "no subsession \(subSessionID)")
      }

    case .helpResult:
      break  // A notice to the requester alone: nothing to keep.
    }
  }

  private mutating func changeSubSessionStatus(
    to status: SubSessionStatus, list: [SubSession], _ event: SessionEvent
  ) throws(EventRejection) {
    let current = subSessions.status
    switch status {
    case .committed:
      guard current != .started else {
        throw reject(.subSessionNotAllowed, event, "committed while started")
      }
      try Self.checkSubSessionList(list, event)
      subSessions = SubSessionBoard(status: .committed, list: list)
    case .withdrawn:
      guard current != .started, !subSessions.list.isEmpty, list.isEmpty else {
        throw reject(.subSessionNotAllowed, event, "withdrawn from \(current)")
      }
      subSessions = SubSessionBoard(status: .withdrawn, list: [])
    case .started:
      guard current != .started, !subSessions.list.isEmpty, list == subSessions.list else {
        throw reject(.subSessionNotAllowed, event, "started from \(current)")
      }
      subSessions.status = .started
    case .stopped:
      guard current == .started, list == subSessions.list else {
        throw reject(.subSessionNotAllowed, event, "stopped from \(current)")
      }
      // Everyone returns to the main session: nobody in a subsession may still share there.
      if let owner = shares.keys.first(where: { subSessions.rooms[$0] != nil }) {
        throw reject(.subSessionNotAllowed, event, "\(owner) still shares in a subsession")
      }
      subSessions.status = .stopped
      subSessions.rooms = [:]
    case .none, .stopping, .commitFailed, .withdrawFailed, .startFailed, .stopFailed:
      throw reject(.subSessionNotAllowed, event, "status \(status) is not reported")
    }
  }

  /// A committed list must hold 1 to ``maxSubSessions`` subsessions with distinct ids and
  /// names of 1 to ``maxSubSessionNameCharacters`` characters.
  static func checkSubSessionList(_ list: [SubSession], _ event: SessionEvent)
    throws(EventRejection)
  {
    guard (1...maxSubSessions).contains(list.count) else {
      throw reject(.subSessionNotAllowed, event, "\(list.count) subsessions")
    }
    guard Set(list.map(\.id)).count == list.count,
      list.allSatisfy({ !$0.id.isEmpty && $0.id.utf8.count <= maxSubSessionIDBytes }),
      validSubSessionNames(list.map(\.name))
    else {
      throw reject(.subSessionNotAllowed, event, "the list repeats an id or has a bad name")
    }
  }

  /// Whether names can be committed: 1 to ``maxSubSessions`` distinct names of 1 to
  /// ``maxSubSessionNameCharacters`` characters (counted once their UTF-8 length is small),
  /// ``maxSubSessionNamesBytes`` bytes in all.
  ///
  /// - Parameter names: The names, in order.
  /// - Returns: `true` if a commit of these names is well formed.
  public static func validSubSessionNames(_ names: [String]) -> Bool {
    guard (1...maxSubSessions).contains(names.count) else { return false }
    var seen = Set<String>()
    var bytes = 0
    for name in names {
      bytes += name.utf8.count
      guard !name.isEmpty, name.utf8.count <= maxSubSessionNameBytes,
        bytes <= maxSubSessionNamesBytes, name.count <= maxSubSessionNameCharacters,
        seen.insert(name).inserted
      else { return false }
    }
    return true
  }

  /// Takes a snapshot's board after its participants: every member in a subsession is
  /// present, every subsession they are in is listed, and members are in one only while
  /// started.
  mutating func adoptSubSessions(_ board: SubSessionBoard, _ event: SessionEvent)
    throws(EventRejection)
  {
    switch board.status {
    case .none, .withdrawn:
      guard board.list.isEmpty else {
        throw reject(.invalidSnapshot, event, "a list with status \(board.status)")
      }
    case .committed, .started, .stopped:
      do {
        try Self.checkSubSessionList(board.list, event)
      } catch {
        throw reject(.invalidSnapshot, event, error.detail)
      }
    case .stopping, .commitFailed, .withdrawFailed, .startFailed, .stopFailed:
      throw reject(.invalidSnapshot, event, "status \(board.status) is not reported")
    }
    guard board.rooms.isEmpty || board.isStarted else {
      throw reject(.invalidSnapshot, event, "members in subsessions that are not started")
    }
    let ids = Set(board.list.map(\.id))
    for (user, room) in board.rooms {
      guard participants[user] != nil, ids.contains(room) else {
        throw reject(.invalidSnapshot, event, "\(user) is in \(room), which is not listed")
      }
    }
    subSessions = board
  }
}
