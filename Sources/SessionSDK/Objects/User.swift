import SessionCore
import SessionTransport

/// A user in a session: `ZoomVideoSDKUser`.
///
/// A handle: it holds the user's id and reads everything else live from the replica. After
/// the user leaves (or the local user leaves the session), it answers with the participant as
/// last known.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of the ``VideoSDK`` that made
/// > it (usually the main actor).
public final class User: Identifiable {
  /// The user's id.
  public let id: UserID
  /// The session, until it is gone (see `LifetimeReference`).
  var session: Session? { sessionReference?.object }
  private let sessionReference: LifetimeReference<Session>?
  /// The participant as last known, once the user left or the session ended.
  var lastKnown: Participant? {
    get { extras?.lastKnown }
    set {
      guard newValue != nil || extras != nil else { return }
      madeExtras.lastKnown = newValue
    }
  }
  /// What few handles need, boxed so that a handle is small (40 bytes, a 48-byte block): a
  /// thousand instances each hold a handle for each of a thousand users, and most never need
  /// the box.
  private var extras: Extras?

  private var madeExtras: Extras {
    if let extras { return extras }
    let made = Extras()
    extras = made
    return made
  }

  init(id: UserID, session: LifetimeReference<Session>?) {
    self.id = id
    self.sessionReference = session
  }

  /// Everything known about the user: live while present, else as last known.
  public var participant: Participant? {
    session?.liveParticipant(id) ?? lastKnown
  }

  /// Whether the user is in the session now.
  public var isPresent: Bool {
    session?.liveParticipant(id) != nil
  }

  /// The user's id as the SDK's `NSInteger` (`getUserID`); also ``getID()``.
  ///
  /// - Returns: The user's numeric id.
  public func getUserID() -> Int { Int(id.rawValue) }

  /// The user's id, as seed apps call it.
  ///
  /// - Returns: The user's numeric id, as ``getUserID()``.
  public func getID() -> Int { Int(id.rawValue) }

  /// The display name.
  ///
  /// - Returns: The user's display name, as last known after they left; `nil` if nothing is
  ///   known of the user.
  public func getUserName() -> String? { participant?.name }

  /// The display name, as seed apps call it.
  ///
  /// - Returns: The user's display name, as ``getUserName()``.
  public func getName() -> String? { participant?.name }

  /// The token's `user_key`, if it had one.
  ///
  /// - Returns: The `user_key` of the user's token; `nil` if it had none or nothing is known.
  public func getCustomUserId() -> String? { participant?.customUserKey }

  /// Whether the user is the host.
  ///
  /// - Returns: `true` if the user is (or, after leaving, was) the host; `false` otherwise.
  public func isHost() -> Bool { participant?.role == .host }

  /// Whether the user is a manager.
  ///
  /// - Returns: `true` if the user is (or, after leaving, was) a manager; `false` otherwise.
  public func isManager() -> Bool { participant?.role == .manager }

  /// Whether the user's video is spotlighted now.
  ///
  /// - Returns: `true` while the host has the user's video in the spotlight; `false` otherwise,
  ///   and once the user or the session is gone.
  public func isVideoSpotLighted() -> Bool {
    session?.liveState?.spotlighted.contains(id) ?? false
  }

  /// Whether the user agreed to be recorded in the recording in progress.
  ///
  /// - Returns: `true` once the user accepted; `false` otherwise, and once the recording
  ///   stopped or the user or the session is gone.
  public func isIndividualRecordAgreed() -> Bool {
    session?.liveState?.recording.agreed.contains(id) ?? false
  }

  /// Whether the user is in a subsession now.
  ///
  /// - Returns: `true` while the user is in a subsession; `false` in the main session, and
  ///   once the user or the session is gone.
  public func isInSubSession() -> Bool {
    session?.liveState?.subSessions.rooms[id] != nil
  }

  /// Audio connection, mute and talking state (`audioType`, `isMuted`, `talking`).
  ///
  /// - Returns: The user's audio status; `nil` if nothing is known of the user.
  public func audioStatus() -> AudioStatus? { participant?.audio }

  /// The user's overall network quality.
  ///
  /// - Returns: The user's network quality; `.none` when unknown.
  public func getOverallNetworkLevel() -> NetworkQuality { participant?.networkQuality ?? .none }

  // MARK: Statistics

  /// The quality of the user's video as this instance sees it: what the local user sends, or
  /// what arrives of a remote user's (while a view subscribes it). All zero with no media
  /// plane, or when nothing is sent or received (`Docs/SessionSDK.md`, "Media").
  ///
  /// - Returns: The video figures: send figures for the local user, receive figures for anyone
  ///   else.
  public func getVideoStatisticInfo() -> QOSStatistics { statistics(.video) }

  /// The quality of the user's audio, as ``getVideoStatisticInfo()`` (a remote user's audio
  /// arrives while they are among the loudest talkers).
  ///
  /// - Returns: The audio figures: send figures for the local user, receive figures for anyone
  ///   else.
  public func getAudioStatisticInfo() -> QOSStatistics { statistics(.audio) }

  /// The quality of the user's share, as ``getVideoStatisticInfo()``.
  ///
  /// - Returns: The share figures: send figures for the local user, receive figures for anyone
  ///   else.
  public func getShareStatisticInfo() -> QOSStatistics { statistics(.share) }

  private func statistics(_ kind: MediaKind) -> QOSStatistics {
    guard let session, let sdk = session.sdk, sdk.currentSession === session else {
      let me = session?.myselfID
      return QOSStatistics(
        direction: id == me ? .send : .receive, statisticsType: DataType(kind))
    }
    return sdk.statistics(of: id, kind: kind)
  }

  /// The user's video canvas; video on or off is ``VideoCanvas/videoStatus()``, not a user
  /// property, as in the SDK.
  ///
  /// - Returns: The user's video canvas, the same object on every call; never `nil` in the
  ///   engine.
  public func getVideoCanvas() -> VideoCanvas? {
    if let canvas = extras?.videoCanvas { return canvas }
    let canvas = VideoCanvas(userID: id, isShare: false, user: self)
    madeExtras.videoCanvas = canvas
    return canvas
  }

  /// The canvas of the user's share.
  func getShareCanvas() -> VideoCanvas {
    if let canvas = extras?.shareCanvas { return canvas }
    let canvas = VideoCanvas(userID: id, isShare: true, user: self)
    madeExtras.shareCanvas = canvas
    return canvas
  }

  /// The user's live shares (at most one); empty when not sharing.
  ///
  /// - Returns: The user's live share, or an empty list when they are not sharing; never `nil`
  ///   in the engine.
  public func getShareActionList() -> [ShareAction]? {
    guard let session, session.liveShare(of: id) != nil else { return [] }
    return [session.shareAction(for: id)]
  }
}

/// What a ``User`` handle keeps beside its id once it needs it: the participant as last known
/// and its canvases. Confined with its handle.
private final class Extras {
  var lastKnown: Participant?
  var videoCanvas: VideoCanvas?
  var shareCanvas: VideoCanvas?
}
