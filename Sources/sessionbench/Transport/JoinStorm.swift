import Dispatch
import SessionCore
import SessionSDK

/// A join storm as SDK instances on one client loop see it (``BenchPeers``, ``MediaPeers``):
/// how many instances hold the whole roster, and when the last of them did.
///
/// > Important: A value, held by its peers object; loop-confined with it.
struct JoinStorm {
  /// The roster size that completes an instance's join; 0 (the default) counts nothing.
  var expectedRoster = 0
  /// Instances that saw everyone (`participants.count == expectedRoster`).
  private(set) var completeRosters = 0
  /// The monotonic time the last roster completed.
  private(set) var end: UInt64 = 0
  /// Signalled when every instance's roster is complete.
  let done: DispatchSemaphore

  /// A storm that signals `done` when it completes.
  init(done: DispatchSemaphore) {
    self.done = done
  }

  /// Starts counting a storm in which every one of `instances` instances sees them all.
  mutating func begin(instances: Int) {
    expectedRoster = instances
    completeRosters = 0
  }

  /// An instance heard a user join: counts it once its roster is complete, and ends the storm
  /// when it is the last of `instances`.
  mutating func userJoined(at sdk: VideoSDK, of instances: Int) {
    guard expectedRoster > 0, sdk.store.state.participants.count == expectedRoster else { return }
    completeRosters += 1
    if completeRosters == instances {
      end = monotonicNanoseconds()
      done.signal()
    }
  }
}
