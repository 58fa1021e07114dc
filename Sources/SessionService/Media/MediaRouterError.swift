/// Why the router refused a call; a refused call changes nothing.
public enum MediaRouterError: Error, Sendable, Hashable {
  /// The user is not a member (``MediaRouter/add(_:)``).
  case unknownUser
  /// The layer is out of range: video has layers `0..<MediaRouter.maxVideoLayers`, audio and
  /// share only layer 0.
  case invalidLayer
  /// A bitrate below zero.
  case invalidBitrate
  /// A loss fraction outside 0...1, or not a number.
  case invalidLossFraction
  /// A report older than the subscriber's previous one.
  case timeWentBackwards
}
