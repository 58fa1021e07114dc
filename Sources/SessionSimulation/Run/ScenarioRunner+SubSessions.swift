import SessionCore
import SessionSDK

extension ScenarioRunner {
  /// How many peers a group holds when a scenario names no subsessions.
  static let groupSize = 5

  /// A subsession call, made as an app holding the SDK's handles would make it.
  ///
  /// - Returns: The SDK's result.
  func performSubSession(
    _ operation: ActionSpec.Operation, by peer: SimulatedPeer, text: String?, value: Bool?
  ) -> VideoSDKError {
    let sdk = peer.sdk
    switch operation {
    case .commitSubSessions:
      guard let helper = sdk.getsubSessionHelper() else { return .sessionNoRights }
      let names =
        text.map { $0.split(separator: ",").map(Self.trimmed) }
        ?? Self.groupNames(peers: peers.count - 1)
      helper.clearSubSessionPreList()
      let added = helper.addSubSession(toPreList: names)
      return added == .success ? helper.commitSubSessionList() : added
    case .withdrawSubSessions:
      return sdk.getsubSessionHelper()?.withdrawSubSessionList() ?? .sessionNoRights
    case .startSubSessions:
      return sdk.subSessionManagerHandle.startSubSession()
    case .stopSubSessions:
      return sdk.subSessionManagerHandle.stopSubSession()
    case .joinSubSession:
      let groups = Self.groupNames(peers: peers.count - 1)
      let name = text ?? groups[safe: max(0, peer.index - 1) / Self.groupSize]
      guard let name, let kit = sdk.subSessionKit(named: name) else { return .invalidParameter }
      return kit.joinSubSession()
    case .returnToMainSession:
      return sdk.subSessionParticipantHandle.returnToMainSession()
    case .broadcastToSubSessions:
      return sdk.subSessionManagerHandle.broadcastMessage(text ?? "message from \(peer.name)")
    case .requestHelp:
      return sdk.subSessionParticipantHandle.requestForHelp()
    case .answerHelp:
      guard let request = peer.helpRequests.popLast() else { return .wrongUsage }
      peer.helpRequests.removeAll()
      let handler = sdk.helpRequestHandler(
        requester: request.requester, subSessionID: request.subSessionID)
      return (value ?? true) ? handler.joinSubSessionByUserRequest() : handler.ignore()
    default:
      return .wrongUsage
    }
  }

  /// A name without the spaces around it.
  static func trimmed(_ name: Substring) -> String {
    String(name.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }

  /// "Group 1" … for groups of five of `peers` peers (at least one group, at most 50).
  static func groupNames(peers: Int) -> [String] {
    let count = min(SessionState.maxSubSessions, max(1, (peers + groupSize - 1) / groupSize))
    return (1...count).map { "Group \($0)" }
  }
}

extension Array {
  /// The element at `index`, or `nil` out of range.
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
