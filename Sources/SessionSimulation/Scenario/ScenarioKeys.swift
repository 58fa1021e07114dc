import Foundation

/// The keys a scenario file may use, object by object: a misspelt key (`"liveliness"`) is an
/// error with its path, not a silent default.
enum ScenarioKeys {
  /// An object's allowed keys, and the shape of the values under them that are objects.
  indirect enum Shape: Sendable {
    /// An object with these keys; a key's shape, when its value is an object or array of them.
    case object(Set<String>, [String: Shape])
    /// An array of values of one shape.
    case array(Shape)
    /// A duration or an object `{from, to}`.
    case range
    /// Anything (a leaf).
    case leaf
  }

  static let range = Shape.range
  static let distribution = Shape.object(
    ["kind", "max", "mean", "standardDeviation", "scale", "shape"], [:])
  static let link = Shape.object(
    [
      "delay", "distribution", "jitter", "loss", "burstLength", "bandwidth", "queueBytes",
      "duplicate", "reorder",
    ], ["distribution": distribution])
  static let network = Shape.object(
    ["both", "uplink", "downlink"], ["both": link, "uplink": link, "downlink": link])
  static let peer = Shape.object(
    [
      "name", "count", "role", "join", "video", "audio", "muted", "token", "password", "network",
      "clockSkewMs", "media",
    ], ["join": range, "network": network, "media": media])
  static let media = Shape.object(
    ["send", "frameRate", "subscribe"],
    ["subscribe": .object(["video", "maxVideo", "resolution", "share"], [:])])
  static let action = Shape.object(["at", "peer", "do", "target", "text", "value"], [:])
  static let behaviour = Shape.object(
    [
      "peers", "leavePerMinute", "rejoinAfter", "videoTogglePerMinute", "audioTogglePerMinute",
      "mutePerMinute", "chatPerMinute", "raiseHandPerMinute", "sharePerMinute", "annotatePerMinute",
      "renamePerMinute", "talkPerMinute", "talkFor",
    ], ["rejoinAfter": range, "talkFor": range])
  static let fault = Shape.object(
    ["at", "kind", "peers", "groups", "oneWay", "direction", "for", "skewMs", "network"],
    ["network": network])
  static let randomFault = Shape.object(
    ["kind", "peers", "perMinute", "duration", "network", "start", "end"],
    ["duration": range, "network": network])
  static let swarm = Shape.object(
    [
      "loss", "delayMs", "jitterMs", "partitionsPerMinute", "holdsPerMinute", "killsPerMinute",
      "pausesPerMinute", "serviceKillsPerMinute", "faultDuration",
    ], ["faultDuration": range])
  static let assertion = Shape.object(
    [
      "at", "peers", "inSession", "host", "managers", "rosterCount", "sees", "doesNotSee",
      "sharing", "videoOn", "shareLocked", "commandsReceived", "spotlighted", "subSessions",
      "inSubSession", "broadcastsReceived", "recording", "recordAgreed",
    ], [:])
  static let scenario = Shape.object(
    [
      "name", "description", "seed", "duration", "session", "service", "network", "peers",
      "actions", "behaviours", "faults", "randomFaults", "swarm", "expect",
    ],
    [
      "session": .object(["name", "password"], [:]),
      "service": .object(["heartbeatTimeout", "reconnectGrace", "maxUsers"], [:]),
      "network": network, "peers": .array(peer), "actions": .array(action),
      "behaviours": .array(behaviour), "faults": .array(fault),
      "randomFaults": .array(randomFault), "swarm": swarm,
      "expect": .object(
        ["invariants", "convergence", "liveness", "delivery", "assertions", "media"],
        [
          "assertions": .array(assertion),
          "media": .object(
            ["tracks", "maxLossPercent", "maxP99DelayMs", "maxPausedTracks", "recoverWithin"], [:]),
        ]),
    ])

  /// The first key `data` uses that its object does not allow.
  ///
  /// - Parameter data: A scenario file.
  /// - Returns: The path and the key, or `nil` when every key is known (or the file is no
  ///   JSON object: decoding reports that).
  static func firstUnknownKey(in data: Data) -> ScenarioError? {
    guard let root = try? JSONSerialization.jsonObject(with: data) else { return nil }
    return check(root, against: scenario, at: "")
  }

  private static func check(_ value: Any, against shape: Shape, at path: String) -> ScenarioError? {
    switch shape {
    case .leaf:
      return nil
    case .range:
      guard value is [String: Any] else { return nil }
      return check(value, against: .object(["from", "to"], [:]), at: path)
    case .array(let element):
      guard let array = value as? [Any] else { return nil }
      for (index, item) in array.enumerated() {
        if let problem = check(item, against: element, at: "\(path)[\(index)]") { return problem }
      }
      return nil
    case .object(let keys, let children):
      guard let object = value as? [String: Any] else { return nil }
      for key in object.keys.sorted() {
        let here = path.isEmpty ? key : "\(path).\(key)"
        guard keys.contains(key) else {
          return ScenarioError(path: here, reason: "unknown key '\(key)'")
        }
        if let child = children[key], let item = object[key],
          let problem = check(item, against: child, at: here)
        {
          return problem
        }
      }
      return nil
    }
  }
}
