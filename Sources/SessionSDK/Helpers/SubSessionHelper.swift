import SessionCore

/// The subsession (breakout room) helper: `ZoomVideoSDKSubSessionHelper`. Only the host and
/// managers get one (``VideoSDK/getsubSessionHelper()`` is `nil` for others); a helper kept
/// after the role is gone answers `Errors_Session_No_Rights`.
///
/// The prepared list is local to the instance: names are added, removed and cleared here, and
/// ``commitSubSessionList()`` sends them to the service, which gives each subsession an id
/// and tells everyone through ``VideoSDKDelegate/onSubSessionStatusChanged(_:subSession:)``.
/// A session commits 1 to 50 subsessions with distinct names of 1 to 64 characters.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class SubSessionHelper {
  /// The instance, until it is gone (see `EngineReference`).
  var reference: EngineReference?
  var sdk: SDKEngine? { reference?.object }
  private var preList: [String] = []

  /// A helper for an instance to point at (``sdk``) once it is made.
  init() {}

  /// Why a call of the host's and managers' is refused now, if it is.
  private func refusal() -> VideoSDKError? {
    guard let sdk, sdk.isInitialized else { return .uninitialize }
    let state = sdk.store.state
    guard state.phase == .inSession, let me = state.myself else { return .notInSession }
    return me.role == .participant ? .sessionNoRights : nil
  }

  /// Adds names to the prepared list.
  ///
  /// - Parameter subSessionNames: The names to add, in order.
  /// - Returns: `Errors_Success`; `Errors_Invalid_Parameter` (adding none) if a name is empty,
  ///   longer than 64 characters, repeated, or the list would pass 50;
  ///   `Errors_Session_No_Rights` for a participant.
  @discardableResult
  public func addSubSession(toPreList subSessionNames: [String]) -> VideoSDKError {
    if let refusal = refusal() { return refusal }
    // The count first: a list of any length costs nothing before it is refused.
    guard !subSessionNames.isEmpty,
      preList.count + subSessionNames.count <= SessionState.maxSubSessions,
      SessionState.validSubSessionNames(preList + subSessionNames)
    else { return .invalidParameter }
    preList += subSessionNames
    return .success
  }

  /// Removes names from the prepared list.
  ///
  /// - Parameter subSessionNames: The names to remove.
  /// - Returns: `Errors_Success`; `Errors_Invalid_Parameter` (removing none) if a name is not
  ///   in the list.
  @discardableResult
  public func removeSubSession(fromPreList subSessionNames: [String]) -> VideoSDKError {
    if let refusal = refusal() { return refusal }
    guard subSessionNames.allSatisfy(preList.contains) else { return .invalidParameter }
    preList.removeAll { subSessionNames.contains($0) }
    return .success
  }

  /// Empties the prepared list.
  ///
  /// - Returns: `Errors_Success`, or why the caller may not.
  @discardableResult
  public func clearSubSessionPreList() -> VideoSDKError {
    if let refusal = refusal() { return refusal }
    preList.removeAll()
    return .success
  }

  /// The prepared list.
  ///
  /// - Returns: The names added and not yet committed, in order; `nil` for a caller who may
  ///   not.
  public func getSubSessionPreList() -> [String]? {
    refusal() == nil ? preList : nil
  }

  /// Withdraws any committed list and commits the prepared one; the prepared list is emptied.
  ///
  /// - Returns: `Errors_Success` once sent (the list is committed when
  ///   ``VideoSDKDelegate/onSubSessionStatusChanged(_:subSession:)`` reports it);
  ///   `Errors_Invalid_Parameter` for an empty prepared list; `Errors_Wrong_Usage` while the
  ///   subsessions are started; `Errors_Session_No_Rights` for a participant.
  @discardableResult
  public func commitSubSessionList() -> VideoSDKError {
    if let refusal = refusal() { return refusal }
    guard let sdk else { return .uninitialize }
    let result = sdk.perform(.subSession(.commit(preList)))
    if result == .success { preList.removeAll() }
    return result
  }

  /// The committed subsessions.
  ///
  /// - Returns: A kit for each, in order; `nil` for a caller who may not.
  public func getCommittedSubSessionList() -> [SubSessionKit]? {
    guard refusal() == nil, let sdk else { return nil }
    return sdk.store.state.subSessions.list.map {
      SubSessionKit(reference: sdk.reference, subSession: $0)
    }
  }

  /// Withdraws the committed list.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_Wrong_Usage` with no list committed or
  ///   while started; `Errors_Session_No_Rights` for a participant.
  @discardableResult
  public func withdrawSubSessionList() -> VideoSDKError {
    if let refusal = refusal() { return refusal }
    return sdk?.perform(.subSession(.withdraw)) ?? .uninitialize
  }
}

/// A committed subsession: `ZoomVideoSDKSubSessionKit`.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class SubSessionKit {
  let reference: EngineReference
  var sdk: SDKEngine? { reference.object }
  /// The subsession it stands for.
  public let subSession: SubSession

  init(reference: EngineReference, subSession: SubSession) {
    self.reference = reference
    self.subSession = subSession
  }

  /// The name.
  ///
  /// - Returns: The committed name.
  public func getSubSessionName() -> String? { subSession.name }

  /// The id the service gave the subsession.
  ///
  /// - Returns: The id.
  public func getSubSessionID() -> String? { subSession.id }

  /// Its members now.
  ///
  /// - Returns: One entry per member, in join order; `nil` outside a session.
  public func getSubSessionUserList() -> [SubSessionUser]? {
    guard let sdk, sdk.store.state.phase == .inSession else { return nil }
    let state = sdk.store.state
    return state.subSessions.members(of: subSession.id).compactMap { id in
      state.participants[id].map { SubSessionUser(participant: $0) }
    }
  }

  /// Joins this subsession (leaving the main session or another subsession). A share or
  /// annotation in progress stops first.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_Wrong_Usage` unless the subsessions are
  ///   started; `Errors_Invalid_Parameter` for a subsession no longer committed (withdrawn,
  ///   or replaced by a newer list).
  @discardableResult
  public func joinSubSession() -> VideoSDKError {
    sdk?.perform(.subSession(.join(subSessionID: subSession.id))) ?? .uninitialize
  }
}

/// A member of a subsession: `ZoomVideoSDKSubSessionUser`.
///
/// A value snapshot taken when the list was read.
public final class SubSessionUser: Sendable {
  private let name: String
  private let guid: String

  init(participant: Participant) {
    name = participant.name
    guid = participant.customUserKey ?? String(participant.id.rawValue)
  }

  /// The member's name.
  ///
  /// - Returns: The name.
  public func getUserName() -> String { name }

  /// The member's stable id: the custom user key, or the user id.
  ///
  /// - Returns: The id, as text.
  public func getUserGUID() -> String { guid }
}

/// The subsession manager's calls: `ZoomVideoSDKSubSessionManager`, given to the host and
/// managers through ``VideoSDKDelegate/onSubSessionManagerHandle(_:)``.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class SubSessionManager {
  let reference: EngineReference
  var sdk: SDKEngine? { reference.object }

  init(reference: EngineReference) { self.reference = reference }

  /// Opens the committed subsessions: members may join them.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_Wrong_Usage` with no list or when already
  ///   started; `Errors_Session_No_Rights` for a participant.
  @discardableResult
  public func startSubSession() -> VideoSDKError {
    sdk?.perform(.subSession(.start)) ?? .uninitialize
  }

  /// Closes the subsessions: everyone returns to the main session; the list stays committed.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_Wrong_Usage` unless started.
  @discardableResult
  public func stopSubSession() -> VideoSDKError {
    sdk?.perform(.subSession(.stop)) ?? .uninitialize
  }

  /// Whether the subsessions are open.
  ///
  /// - Returns: `true` while started.
  public func isSubSessionStarted() -> Bool {
    sdk?.store.state.subSessions.isStarted ?? false
  }

  /// Sends a message to everyone in a subsession
  /// (``VideoSDKDelegate/onBroadcastMessageFromMainSession(_:userName:)``).
  ///
  /// - Parameter message: 1 to 512 characters.
  /// - Returns: `Errors_Success` once sent; `Errors_Invalid_Parameter` for an empty or too
  ///   long message; `Errors_Wrong_Usage` unless started.
  @discardableResult
  public func broadcastMessage(_ message: String) -> VideoSDKError {
    sdk?.perform(.subSession(.broadcast(message))) ?? .uninitialize
  }
}

/// A subsession member's calls: `ZoomVideoSDKSubSessionParticipant`, given to everyone when
/// the subsessions start (``VideoSDKDelegate/onSubSessionParticipantHandle(_:)``).
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class SubSessionParticipant {
  let reference: EngineReference
  var sdk: SDKEngine? { reference.object }

  init(reference: EngineReference) { self.reference = reference }

  /// Returns from a subsession to the main session.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_Wrong_Usage` when not in a subsession.
  @discardableResult
  public func returnToMainSession() -> VideoSDKError {
    sdk?.perform(.subSession(.returnToMain)) ?? .uninitialize
  }

  /// Asks the host for help; the answer comes as
  /// ``VideoSDKDelegate/onSubSessionUserHelpRequestResult(_:)``.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_Wrong_Usage` when not in a subsession or
  ///   for the host.
  @discardableResult
  public func requestForHelp() -> VideoSDKError {
    sdk?.perform(.subSession(.requestHelp)) ?? .uninitialize
  }
}

/// A member's help request, as the host receives it:
/// `ZoomVideoSDKSubSessionUserHelpRequestHandler`.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class SubSessionUserHelpRequestHandler {
  let reference: EngineReference
  var sdk: SDKEngine? { reference.object }
  /// Who asked.
  public let requester: UserID
  /// The subsession they asked from.
  public let subSessionID: String
  private let userName: String?
  private let subSessionName: String?
  private var answered = false

  init(reference: EngineReference, requester: UserID, subSessionID: String) {
    self.reference = reference
    self.requester = requester
    self.subSessionID = subSessionID
    let state = reference.object?.store.state
    userName = state?.participants[requester]?.name
    subSessionName = state?.subSessions.subSession(withID: subSessionID)?.name
  }

  /// Who asked.
  ///
  /// - Returns: The requester's name.
  public func getRequestUserName() -> String? { userName }

  /// Where they asked from.
  ///
  /// - Returns: The subsession's name.
  public func getRequestSubSessionName() -> String? { subSessionName }

  /// Ignores the request: the requester hears `ignore`.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_Invalid_Parameter` for a request already
  ///   answered.
  @discardableResult
  public func ignore() -> VideoSDKError { answer(join: false) }

  /// Joins the requester's subsession.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_Invalid_Parameter` for a request already
  ///   answered or a requester no longer in a subsession.
  @discardableResult
  public func joinSubSessionByUserRequest() -> VideoSDKError { answer(join: true) }

  /// Answers once: a handler already answered refuses at once (the service refuses an answer
  /// to a request no longer waiting, through `onError`, as well).
  private func answer(join: Bool) -> VideoSDKError {
    guard !answered else { return .invalidParameter }
    let result =
      sdk?.perform(.subSession(.answerHelp(requester: requester, join: join))) ?? .uninitialize
    if result == .success { answered = true }
    return result
  }
}

/// Whether the local user is in the main session or a subsession
/// (`ZoomVideoSDKSessionType`, ``VideoSDK/getSessionType()``).
public enum SessionType: Int, Sendable, Hashable, CaseIterable {
  /// The main session.
  case main = 0
  /// A subsession.
  case sub = 1
}

extension VideoSDK {
  /// The subsession manager's calls, as the handle `onSubSessionManagerHandle(_:)` gives: for
  /// tools that drive an instance as an app holding the handle would (simulated peers).
  package var subSessionManagerHandle: SubSessionManager {
    SubSessionManager(reference: engine.reference)
  }

  /// The subsession participant's calls, as `onSubSessionParticipantHandle(_:)` gives them.
  package var subSessionParticipantHandle: SubSessionParticipant {
    SubSessionParticipant(reference: engine.reference)
  }

  /// A kit for a committed subsession of the replica, as `onSubSessionStatusChanged` gives.
  ///
  /// - Parameter name: The subsession's name.
  /// - Returns: The kit, or `nil` if no committed subsession has the name.
  package func subSessionKit(named name: String) -> SubSessionKit? {
    engine.store.state.subSessions.list.first { $0.name == name }.map {
      SubSessionKit(reference: engine.reference, subSession: $0)
    }
  }

  /// A help request as `onSubSessionUserHelpRequestHandler(_:)` gives it.
  ///
  /// - Parameters:
  ///   - requester: Who asked.
  ///   - subSessionID: Where from.
  /// - Returns: The handler.
  package func helpRequestHandler(requester: UserID, subSessionID: String)
    -> SubSessionUserHelpRequestHandler
  {
    SubSessionUserHelpRequestHandler(
      reference: engine.reference, requester: requester, subSessionID: subSessionID)
  }
}
