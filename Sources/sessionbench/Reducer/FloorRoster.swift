/// The floor's per-user value: the fields the mix touches, nothing derived.
struct SmallUser {
  var name: String
  var role: UInt8 = 2
  var isVideoOn = false
  var audioType: UInt8 = 0
  var isMuted = true
  var networkQuality: UInt8 = 0
  var joinOrder: UInt64
}

/// One mutation of the mix, decoded in advance for the floor.
enum FloorOperation {
  case video(UInt32, Bool)
  case audio(UInt32, UInt8, Bool)
  case network(UInt32, UInt8)
  case name(UInt32, String)
  case join(UInt32, SmallUser)
  case leave(UInt32)
  case host(UInt32)
  case role(UInt32, UInt8)
}

/// The floor: the same mutations on a plain `[UInt32: SmallUser]` in its fastest plain form
/// (`index(forKey:)`, then mutate `values[i]` in place). No validation, no role order, no
/// rejection: what any roster must at least pay.
struct FloorRoster {
  var users: [UInt32: SmallUser] = [:]
  var hostID: UInt32 = 0

  /// Applies every operation; returns how many found their user, to keep the work observable.
  mutating func apply(_ operations: [FloorOperation]) -> Int {
    var hits = 0
    for operation in operations {
      switch operation {
      case .video(let id, let isOn):
        if let index = users.index(forKey: id) {
          users.values[index].isVideoOn = isOn
          hits &+= 1
        }
      case .audio(let id, let type, let isMuted):
        if let index = users.index(forKey: id) {
          users.values[index].audioType = type
          users.values[index].isMuted = isMuted
          hits &+= 1
        }
      case .network(let id, let quality):
        if let index = users.index(forKey: id) {
          users.values[index].networkQuality = quality
          hits &+= 1
        }
      case .name(let id, let name):
        if let index = users.index(forKey: id) {
          users.values[index].name = name
          hits &+= 1
        }
      case .join(let id, let user):
        users[id] = user
        hits &+= 1
      case .leave(let id):
        if users.removeValue(forKey: id) != nil { hits &+= 1 }
      case .host(let id):
        if let index = users.index(forKey: hostID) { users.values[index].role = 2 }
        if let index = users.index(forKey: id) {
          users.values[index].role = 0
          hostID = id
          hits &+= 1
        }
      case .role(let id, let role):
        if let index = users.index(forKey: id) {
          users.values[index].role = role
          hits &+= 1
        }
      }
    }
    return hits
  }
}
