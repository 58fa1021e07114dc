import SessionCore
import SessionSDK

/// Counts callbacks at the instances: every callback value through each instance's
/// `callbackObserver`, and the two steady-phase callbacks again through a delegate, so that
/// the live-object path (`User` handles, the weak delegate) is part of what is measured.
final class CallbackCounter: VideoSDKDelegate {
  /// A count the observers share; held strongly by each observer closure.
  final class Tally {
    // Unchecked: one isolation domain, and every access is a single increment or read.
    @exclusivity(unchecked) var count = 0
  }

  private let tally = Tally()
  /// `onUserVideoStatusChanged` and `onUserAudioStatusChanged` calls seen by the delegate.
  @exclusivity(unchecked) var delegated = 0

  /// Callbacks seen by the observers.
  var observed: Int {
    get { tally.count }
    set { tally.count = newValue }
  }

  /// Makes `sdk` report to this counter.
  func watch(_ sdk: VideoSDK) {
    sdk.delegate = self
    let tally = tally
    sdk.callbackObserver = { _ in tally.count &+= 1 }
  }

  func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {
    delegated &+= user?.count ?? 0
  }

  func onUserAudioStatusChanged(_ helper: AudioHelper?, user: [User]?) {
    delegated &+= user?.count ?? 0
  }
}
