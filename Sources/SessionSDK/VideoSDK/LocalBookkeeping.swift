import SessionCore
import SessionTransport

/// What an engine keeps beside its replica, as one value: state that is the instance's own
/// and never the session's (so the replica's shared facts equal the service's after
/// quiescence).
///
/// > Important: A value held by one ``SDKEngine``, in its isolation domain.
struct LocalBookkeeping {
  /// The annotation helpers the app made, by share owner.
  var annotationHelpers: [UserID: AnnotationHelper] = [:]
  /// Commands sent whose refusal needs more than `onError`, by id.
  var pendingCommands: [CommandID: SDKEngine.PendingCommand] = [:]
  /// The id of the last command sent; ids count up from 1 for the instance's life.
  var lastCommandID: CommandID = 0
  /// The canvases subscribed to users' video and shares.
  var subscriptions = CanvasSubscriptions()
  /// When the last in-app screen share started (its 500 ms rate limit), by the clock.
  var lastInAppShareStart: Int64?
  /// When the command channel's commands of the last second went, by the clock.
  var commandTimes: [Int64] = []
  /// The view in-app screen share annotates on, if the app set one.
  weak var annotationView: AnyObject?
}
