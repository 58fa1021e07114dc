import SessionCore
import SessionSDK

/// Counts callbacks at the instances: every callback value through each instance's
/// `callbackObserver`, and the two steady-phase callbacks again through a delegate, so that
/// the live-object path (`User` handles, the weak delegate) is part of what is measured.
final class CallbackCounter: VideoSDKDelegate {
  /// Callbacks seen by the observers.
  var observed = 0
  /// `onUserVideoStatusChanged` and `onUserAudioStatusChanged` calls seen by the delegate.
  var delegated = 0

  /// Makes `sdk` report to this counter.
  func watch(_ sdk: VideoSDK) {
    sdk.delegate = self
    sdk.callbackObserver = { [unowned self] _ in self.observed &+= 1 }
  }

  func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {
    delegated &+= user?.count ?? 0
  }

  func onUserAudioStatusChanged(_ helper: AudioHelper?, user: [User]?) {
    delegated &+= user?.count ?? 0
  }
}
