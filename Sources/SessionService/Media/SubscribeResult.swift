import SessionCore

/// What ``MediaRouter/subscribe(_:to:kind:resolution:)`` did.
public enum SubscribeResult: Sendable, Hashable {
  /// The subscription exists now (a repeated subscription only changes its resolution).
  case subscribed
  /// Nothing changed, for the reason given.
  case failed(SubscribeRefusal)
}

/// Why a subscription was refused.
///
/// The first two are the SDK's `ZoomVideoSDKSubscribeFailReason` cases (SessionSDK's
/// `SubscribeFailReason`; ``sdkReason`` gives their numbers); the others are requests the real
/// SDK cannot make, which a service must still refuse.
public enum SubscribeRefusal: Sendable, Hashable, CaseIterable {
  /// The subscriber already holds the most video subscriptions
  /// (``MediaRouter/Configuration/maxVideoSubscriptions``, 25 by default):
  /// `HasSubscribeExceededLimit`.
  case exceededLimit
  /// The subscriber already renders another user's share: `HasSubscribeOneShare`.
  case oneShare
  /// A user cannot subscribe to their own streams.
  case ownStream
  /// The publisher is not a member of the session.
  case unknownPublisher
  /// The subscriber is not a member of the session.
  case unknownSubscriber
  /// Audio needs no subscription: every member receives the loudest speakers.
  case notSubscribable

  /// The `ZoomVideoSDKSubscribeRefusal` value, for the reasons the SDK has.
  public var sdkReason: Int? {
    switch self {
    case .exceededLimit: 2
    case .oneShare: 4
    case .ownStream, .unknownPublisher, .unknownSubscriber, .notSubscribable: nil
    }
  }
}
