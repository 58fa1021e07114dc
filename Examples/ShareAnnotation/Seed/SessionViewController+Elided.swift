// Scaffolding, not seed code: what seed 001's `SessionViewController` calls but the article
// elides (its `// ...`, the quickstart app it builds on). Added here, and nothing else:
//
// - `addLocalViewToGrid()` and `addLocalViewDuringShare()`: the local tiles, as new views;
// - `handleAudioToggle(_:)`: the audio button's handler, which nothing here taps (it does
//   nothing);
// - `onUserJoin(_:users:)` and `onUserLeave(_:users:)`: a tile per remote user in
//   `remoteUserViews`, which the published `onUserVideoStatusChanged` reads;
// - `viewDidLoadAndJoin(sessionName:userName:token:)`: what the quickstart's `viewDidLoad` and
//   join do: the tab bar (through the published `setupTabBar()`), the delegate, and the join,
//   camera on and microphone muted as the quickstart joins.

import SessionCore
import SessionSDK

#if canImport(UIKit)
  import UIKit
#endif

extension SessionViewController {
  func addLocalViewToGrid() {
    localView = UIView()
    localPlaceholder = UIView()
  }

  func addLocalViewDuringShare() -> (view: UIView, placeholder: UIView) {
    (view: UIView(), placeholder: UIView())
  }

  func handleAudioToggle(_ tabBar: UITabBar) {}

  func onUserJoin(_ helper: UserHelper?, users: [User]?) {
    let myself = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf()
    for user in users ?? [] where user.getID() != myself?.getID() {
      let placeholder = UIView()
      placeholder.isHidden = user.getVideoCanvas()?.videoStatus()?.on ?? false
      remoteUserViews[user.getID()] = (view: UIView(), placeholder: placeholder)
    }
  }

  func onUserLeave(_ helper: UserHelper?, users: [User]?) {
    for user in users ?? [] {
      remoteUserViews[user.getID()] = nil
    }
  }

  func viewDidLoadAndJoin(sessionName: String, userName: String, token: String) {
    setupTabBarFromElidedViewDidLoad()
    ZoomVideoSDK.shareInstance()?.delegate = self
    let context = SessionContext()
    context.token = token
    context.sessionName = sessionName
    context.userName = userName
    context.videoOption.localVideoOn = true
    context.audioOption.mute = true
    _ = ZoomVideoSDK.shareInstance()?.joinSession(context)
  }
}
