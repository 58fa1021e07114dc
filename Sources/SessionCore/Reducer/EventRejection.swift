/// Why an event could not apply. The state is left exactly as it was.
public struct EventRejection: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of failure.
  public enum Code: String, Sendable, Hashable, Codable {
    /// The event does not apply in the current lifecycle phase.
    case outOfPhase
    /// The event names a user who is not in the session.
    case unknownUser
    /// The event adds a user who is already in the session.
    case duplicateUser
    /// The event would make a second host.
    case secondHost
    /// The event would change nothing (for example, making a manager a manager).
    case noChange
    /// The event names the host where only a non-host fits, or removes the local user.
    case invalidTarget
    /// A share status change that does not follow from the current one.
    case invalidShareTransition
    /// Starting a share that the share setting forbids.
    case shareNotAllowed
    /// An annotation event on a share that is not live or does not allow it.
    case annotationNotAllowed
    /// A chat message id that is already present, or a deleted one that is absent.
    case unknownOrDuplicateMessage
    /// A snapshot that contradicts itself.
    case invalidSnapshot
    /// A subsession status change that does not follow from the current one, a move to a
    /// subsession that is not open, or a move of a member who still shares or annotates.
    case subSessionNotAllowed
    /// A recording status change that does not follow from the current one, or an agreement
    /// with no recording in progress.
    case recordingNotAllowed
  }

  /// The kind of failure.
  public var code: Code
  /// The event's case name.
  public var event: String
  /// What was wrong, for people.
  public var detail: String

  /// Creates a rejection.
  ///
  /// - Parameters:
  ///   - code: The kind of failure.
  ///   - event: The rejected event's case name, for example `"usersJoined"`.
  ///   - detail: What was wrong, for people.
  public init(_ code: Code, event: String, detail: String) {
    self.code = code
    self.event = event
    self.detail = detail
  }

  /// The event, code and detail, for people.
  public var description: String { "\(event) rejected (\(code.rawValue)): \(detail)" }
}
