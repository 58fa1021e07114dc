import SessionCore

/// A plain, fully mutable mirror of ``SessionCore/SessionState``'s fields, for writing down the
/// state a test expects.
///
/// `SessionState` only changes through its reducer; a test describes the expected result by
/// mutating a copy of this mirror, as in TCA's `TestStore`:
///
/// ```swift
/// store.send(.videoStatusChanged(user: 2, isOn: true)) {
///   $0.participants[2]?.isVideoOn = true
/// }
/// ```
///
/// The role-order cache is derived from the participants, so it is not mirrored: describe the
/// roles and the order follows.
///
/// > Important: A `Sendable` value; use it anywhere.
public struct SessionStateFields: Sendable, Hashable {
  /// ``SessionCore/SessionState/phase``.
  public var phase: SessionPhase
  /// ``SessionCore/SessionState/sessionName``.
  public var sessionName: String?
  /// ``SessionCore/SessionState/sessionID``.
  public var sessionID: String?
  /// ``SessionCore/SessionState/myselfID``.
  public var myselfID: UserID?
  /// ``SessionCore/SessionState/participants``.
  public var participants: UserMap<Participant>
  /// ``SessionCore/SessionState/hostID``.
  public var hostID: UserID?
  /// ``SessionCore/SessionState/shareSetting``.
  public var shareSetting: ShareSetting
  /// ``SessionCore/SessionState/shares``.
  public var shares: [UserID: ActiveShare]
  /// ``SessionCore/SessionState/chatPrivilege``.
  public var chatPrivilege: ChatPrivilege
  /// ``SessionCore/SessionState/chatMessages``.
  public var chatMessages: [ChatMessage]
  /// ``SessionCore/SessionState/activeSpeakers``.
  public var activeSpeakers: [UserID]
  /// ``SessionCore/SessionState/spotlighted``.
  public var spotlighted: [UserID]
  /// ``SessionCore/SessionState/subSessions``.
  public var subSessions: SubSessionBoard
  /// ``SessionCore/SessionState/recording``.
  public var recording: RecordingBoard
  /// ``SessionCore/SessionState/unmuteRequestedBy``.
  public var unmuteRequestedBy: UserID?
  /// ``SessionCore/SessionState/lastError``.
  public var lastError: VideoSDKError?
  /// ``SessionCore/SessionState/isServiceView``.
  public var isServiceView: Bool

  /// Mirrors a state.
  ///
  /// - Parameter state: The state whose fields to copy.
  public init(_ state: SessionState) {
    phase = state.phase
    sessionName = state.sessionName
    sessionID = state.sessionID
    myselfID = state.myselfID
    participants = state.participants
    hostID = state.hostID
    shareSetting = state.shareSetting
    shares = state.shares
    chatPrivilege = state.chatPrivilege
    chatMessages = state.chatMessages
    activeSpeakers = state.activeSpeakers
    spotlighted = state.spotlighted
    subSessions = state.subSessions
    recording = state.recording
    unmuteRequestedBy = state.unmuteRequestedBy
    lastError = state.lastError
    isServiceView = state.isServiceView
  }

  /// The replica member `myself` holds right after joining, given the service's state of the
  /// session then: the shared facts, in session, no chat history, no error.
  ///
  /// ```swift
  /// store.perform(
  ///   { $0.joinSession(context) },
  ///   assert: { expected in
  ///     if let service = testbed.serviceState() { expected = .member(2, of: service) }
  ///   })
  /// ```
  ///
  /// - Parameters:
  ///   - myself: The joined member's user id.
  ///   - service: The service's state of the session at the join.
  /// - Returns: The service's fields, in session as `myself`, with no chat history, unmute request
  ///   or error, and not the service's view.
  public static func member(_ myself: UserID, of service: SessionState) -> SessionStateFields {
    var fields = SessionStateFields(service)
    fields.phase = .inSession
    fields.myselfID = myself
    fields.isServiceView = false
    fields.chatMessages = []
    fields.unmuteRequestedBy = nil
    fields.lastError = nil
    return fields
  }

  /// The local user, read and written through ``participants``; `nil` without a ``myselfID``.
  ///
  /// Setting it to `nil` removes the local user from the participants.
  public var myself: Participant? {
    get { myselfID.flatMap { participants[$0] } }
    set {
      guard let myselfID else { return }
      participants[myselfID] = newValue
    }
  }

  /// Lines describing each difference from `actual`, field by field; empty when equal.
  ///
  /// Participants and shares are compared field by field, so a line names exactly what
  /// differs: `participants[#2].isVideoOn: expected true, got false`.
  ///
  /// - Parameter actual: The fields found; `self` is the expected side.
  /// - Returns: One line per differing field, as `field: expected …, got …`; empty when equal.
  /// - Complexity: O(participants + shares + chat messages).
  public func differences(from actual: SessionStateFields) -> [String] {
    var lines = FieldDiff()
    lines.check("phase", phase, actual.phase)
    lines.check("myselfID", myselfID, actual.myselfID)
    lines.check("unmuteRequestedBy", unmuteRequestedBy, actual.unmuteRequestedBy)
    lines.check("lastError", lastError, actual.lastError)
    lines.check("isServiceView", isServiceView, actual.isServiceView)
    lines.shared(self, actual)
    lines.chatMessages(chatMessages, actual.chatMessages)
    return lines.lines
  }
}

extension SharedSessionFacts {
  /// Lines describing each difference from `actual`, field by field; empty when equal.
  ///
  /// - Parameter actual: The facts found; `self` is the expected side.
  /// - Returns: One line per differing field, as `field: expected …, got …`; empty when equal.
  /// - Complexity: O(participants + shares).
  public func differences(from actual: SharedSessionFacts) -> [String] {
    var lines = FieldDiff()
    lines.shared(self, actual)
    return lines.lines
  }
}

/// The fields a replica shares with every other member's: ``SessionStateFields`` and
/// `SharedSessionFacts` both have them, under the same names.
protocol SharedFields {
  var sessionName: String? { get }
  var sessionID: String? { get }
  var participants: UserMap<Participant> { get }
  var hostID: UserID? { get }
  var shareSetting: ShareSetting { get }
  var shares: [UserID: ActiveShare] { get }
  var chatPrivilege: ChatPrivilege { get }
  var activeSpeakers: [UserID] { get }
  var spotlighted: [UserID] { get }
  var subSessions: SubSessionBoard { get }
  var recording: RecordingBoard { get }
}

extension SessionStateFields: SharedFields {}
extension SharedSessionFacts: SharedFields {}

/// Collects "field: expected …, got …" lines.
///
/// A value, owned by the call that compares.
struct FieldDiff {
  var lines: [String] = []

  /// Checks the fields every member shares, in one order for both kinds of value.
  mutating func shared(_ expected: some SharedFields, _ got: some SharedFields) {
    check("sessionName", expected.sessionName, got.sessionName)
    check("sessionID", expected.sessionID, got.sessionID)
    check("hostID", expected.hostID, got.hostID)
    check("shareSetting", expected.shareSetting, got.shareSetting)
    check("chatPrivilege", expected.chatPrivilege, got.chatPrivilege)
    check("activeSpeakers", expected.activeSpeakers, got.activeSpeakers)
    check("spotlighted", expected.spotlighted, got.spotlighted)
    check("subSessions", expected.subSessions, got.subSessions)
    check("recording", expected.recording, got.recording)
    participants(expected.participants, got.participants)
    shares(expected.shares, got.shares)
  }

  mutating func check<T: Equatable>(_ name: String, _ expected: T, _ got: T) {
    if expected != got { lines.append("\(name): expected \(show(expected)), got \(show(got))") }
  }

  mutating func participants(_ expected: UserMap<Participant>, _ got: UserMap<Participant>) {
    keyed("participants", Dictionary(expected), Dictionary(got)) {
      lines, name, expected, got in
      lines.check("\(name).name", expected.name, got.name)
      lines.check("\(name).role", expected.role, got.role)
      lines.check("\(name).isVideoOn", expected.isVideoOn, got.isVideoOn)
      lines.check("\(name).audio", expected.audio, got.audio)
      lines.check("\(name).shareStatus", expected.shareStatus, got.shareStatus)
      lines.check("\(name).networkQuality", expected.networkQuality, got.networkQuality)
      lines.check("\(name).joinOrder", expected.joinOrder, got.joinOrder)
      lines.check("\(name).customUserKey", expected.customUserKey, got.customUserKey)
    }
  }

  mutating func shares(_ expected: [UserID: ActiveShare], _ got: [UserID: ActiveShare]) {
    keyed("shares", expected, got) {
      lines, name, expected, got in
      lines.check("\(name).status", expected.status, got.status)
      lines.check("\(name).kind", expected.kind, got.kind)
      lines.check(
        "\(name).isViewerAnnotationDisabled", expected.isViewerAnnotationDisabled,
        got.isViewerAnnotationDisabled)
      lines.check("\(name).annotators", expected.annotators.sorted(), got.annotators.sorted())
      lines.check("\(name).clearCount", expected.clearCount, got.clearCount)
      lines.check("\(name).startOrder", expected.startOrder, got.startOrder)
    }
  }

  /// Compares the values under each id, in id order: `compare` for an id on both sides, one
  /// line for an id on one side only.
  private mutating func keyed<Value>(
    _ field: String, _ expected: [UserID: Value], _ got: [UserID: Value],
    _ compare: (inout FieldDiff, String, Value, Value) -> Void
  ) {
    for id in Set(expected.keys).union(got.keys).sorted() {
      let name = "\(field)[\(id)]"
      switch (expected[id], got[id]) {
      case (let expected?, let got?):
        compare(&self, name, expected, got)
      case (let expected?, nil):
        lines.append("\(name): expected \(show(expected)), got nothing")
      case (nil, let got?):
        lines.append("\(name): expected nothing, got \(show(got))")
      case (nil, nil):
        break
      }
    }
  }

  mutating func chatMessages(_ expected: [ChatMessage], _ got: [ChatMessage]) {
    guard expected != got else { return }
    for index in 0..<max(expected.count, got.count) {
      let left = index < expected.count ? expected[index] : nil
      let right = index < got.count ? got[index] : nil
      if left != right {
        lines.append(
          "chatMessages[\(index)]: expected \(left.map(show) ?? "nothing"), "
            + "got \(right.map(show) ?? "nothing")")
      }
    }
  }

  private func show<T>(_ value: T) -> String {
    if let optional = value as? any OptionalProtocol { return unqualified(optional.shown) }
    return unqualified("\(value)")
  }
}

/// Prints optionals as their value or `nil`, not as `Optional(…)`.
private protocol OptionalProtocol {
  var shown: String { get }
}

extension Optional: OptionalProtocol {
  fileprivate var shown: String {
    switch self {
    case .some(let value): "\(value)"
    case .none: "nil"
    }
  }
}
