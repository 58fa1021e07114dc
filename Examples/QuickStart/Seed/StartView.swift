// swift-format-ignore-file
import SessionCore
import SessionSDK

/// Seed 000's `StartView`, without SwiftUI: the view is not portable, its `setupSDK()` is,
/// and is the seed's text. Main-actor-bound, as a SwiftUI view is.
@MainActor
struct StartView {
  // The seed's setupSDK, as published: no transport, so the instance reaches the development
  // service of "zoom.us" (Docs/SessionSDK.md).
  func setupSDK() {
    let initParams = ZoomVideoSDKInitParams()
    initParams.domain = "zoom.us"
    let sdkInitReturnStatus = ZoomVideoSDK.shareInstance()?.initialize(initParams)
    switch sdkInitReturnStatus {
    case .Errors_Success:
        print ("SDK initialization succeeded")
    default:
        if let error = sdkInitReturnStatus {
            print("SDK initialization failed: \(error)")
            return
        }
    }
  }
}

/// Seed 000's `SessionView`, without SwiftUI: only its view model (`SessionView+Extension.swift`)
/// runs headless.
struct SessionView {}
