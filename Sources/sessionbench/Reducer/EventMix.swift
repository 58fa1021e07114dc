import SessionCore

/// A pre-generated, realistic stream of in-session events for a roster of a fixed size, and
/// the same mutations as plain dictionary operations for the floor.
///
/// Per 95 draws: 40 video toggles, 40 audio changes, 4 network and 4 name changes, 5 join+leave
/// pairs (so the roster keeps its size), 1 host change and 1 manager change. That is about 42%
/// video, 42% audio, 8% network/name, 10.5% joins and leaves and 2% role changes. Every event
/// applies: the generator tracks the roster it produces.
struct EventMix {
  /// The roster size.
  let size: Int
  /// The events, in order.
  private(set) var events: [SessionEvent] = []
  /// The same mutations for the floor.
  private(set) var floorOperations: [FloorOperation] = []

  static let myself: UInt32 = 1
  static let firstHost: UInt32 = 2
  static let firstManagers: ClosedRange<UInt32> = 3...12

  /// Generates `count` events for a roster of `size` users.
  init(size: Int, count: Int, seed: UInt64 = 0x5EED) {
    precondition(size >= 20, "a roster of at least 20 users")
    self.size = size
    events.reserveCapacity(count)
    floorOperations.reserveCapacity(count)
    var generator = Generator(size: size, seed: seed)
    while events.count < count {
      generator.step(into: &events, &floorOperations)
    }
  }

  /// A fresh session of `size` users, in session: myself (1), host (2), managers (3...12),
  /// everyone else a participant; join order equals id.
  func makeState() -> SessionState {
    let participants = (1...UInt32(size)).map { id in
      Participant(
        id: UserID(id), name: "User \(id)", role: Self.initialRole(id),
        audio: AudioStatus(type: .voip, isMuted: true), joinOrder: UInt64(id))
    }
    let snapshot = SessionSnapshot(
      sessionName: "bench", sessionID: "bench-session", myself: UserID(Self.myself),
      participants: participants)
    do {
      return try SessionState(snapshot: snapshot)
    } catch {
      preconditionFailure("benchmark snapshot is valid: \(error)")
    }
  }

  /// The same roster as a plain dictionary.
  func makeFloor() -> FloorRoster {
    var roster = FloorRoster()
    roster.users.reserveCapacity(size)
    for id in 1...UInt32(size) {
      roster.users[id] = SmallUser(
        name: "User \(id)", role: Self.initialRole(id).rawValue, audioType: 1, isMuted: true,
        joinOrder: UInt64(id))
    }
    roster.hostID = Self.firstHost
    return roster
  }

  static func initialRole(_ id: UInt32) -> Role {
    id == firstHost ? .host : firstManagers.contains(id) ? .manager : .participant
  }
}

/// Tracks the roster while generating, so that every event applies.
private struct Generator {
  var random: SimulationRandom
  /// Present users, for uniform picks; `position` finds one for swap-removal.
  var present: [UInt32]
  var position: [UInt32: Int]
  var managers: [UInt32]
  var host: UInt32
  var nextID: UInt32
  let names: [String]

  init(size: Int, seed: UInt64) {
    random = SimulationRandom(seed: seed)
    present = Array(1...UInt32(size))
    position = Dictionary(uniqueKeysWithValues: present.enumerated().map { ($1, $0) })
    managers = Array(EventMix.firstManagers)
    host = EventMix.firstHost
    nextID = UInt32(size) + 1
    names = (0..<64).map { "Name \($0)" }
  }

  mutating func pick() -> UInt32 { present[Int(random.next() % UInt64(present.count))] }

  mutating func coin() -> Bool { random.next() & 1 == 0 }

  mutating func step(into events: inout [SessionEvent], _ floor: inout [FloorOperation]) {
    let draw = random.next() % 95
    switch draw {
    case 0..<40:
      let user = pick()
      let isOn = coin()
      events.append(.videoStatusChanged(user: UserID(user), isOn: isOn))
      floor.append(.video(user, isOn))
    case 40..<80:
      let user = pick()
      let isMuted = coin()
      events.append(.audioStatusChanged(user: UserID(user), type: .voip, isMuted: isMuted))
      floor.append(.audio(user, AudioType.voip.rawValue, isMuted))
    case 80..<84:
      let user = pick()
      let quality = NetworkQuality(rawValue: UInt8(random.next() % 4)) ?? .good
      events.append(.networkStatusChanged(user: UserID(user), quality: quality))
      floor.append(.network(user, quality.rawValue))
    case 84..<88:
      let user = pick()
      let name = names[Int(random.next() % UInt64(names.count))]
      events.append(.nameChanged(user: UserID(user), name: name))
      floor.append(.name(user, name))
    case 88..<93:
      joinAndLeave(&events, &floor)
    case 93:
      var user = pick()
      while user == host { user = pick() }
      if let index = managers.firstIndex(of: user) { managers.remove(at: index) }
      floor.append(.host(user))
      events.append(.hostChanged(newHost: UserID(user)))
      host = user
    default:
      changeManager(&events, &floor)
    }
  }

  mutating func joinAndLeave(_ events: inout [SessionEvent], _ floor: inout [FloorOperation]) {
    let id = nextID
    nextID += 1
    let name = "Student \(id)"
    events.append(
      .usersJoined([Participant(id: UserID(id), name: name, joinOrder: UInt64(id))]))
    floor.append(.join(id, SmallUser(name: name, joinOrder: UInt64(id))))
    position[id] = present.count
    present.append(id)

    var leaver = pick()
    while leaver == EventMix.myself || leaver == host || leaver == id { leaver = pick() }
    events.append(.usersLeft([UserID(leaver)]))
    floor.append(.leave(leaver))
    if let index = managers.firstIndex(of: leaver) { managers.remove(at: index) }
    if let index = position.removeValue(forKey: leaver) {
      let last = present.removeLast()
      if last != leaver {
        present[index] = last
        position[last] = index
      }
    }
  }

  mutating func changeManager(_ events: inout [SessionEvent], _ floor: inout [FloorOperation]) {
    let promote = managers.count < 5 || (managers.count < 15 && coin())
    if promote {
      var user = pick()
      while user == host || managers.contains(user) { user = pick() }
      managers.append(user)
      events.append(.managerChanged(user: UserID(user), isManager: true))
      floor.append(.role(user, Role.manager.rawValue))
    } else {
      let user = managers.remove(at: Int(random.next() % UInt64(managers.count)))
      events.append(.managerChanged(user: UserID(user), isManager: false))
      floor.append(.role(user, Role.participant.rawValue))
    }
  }
}
