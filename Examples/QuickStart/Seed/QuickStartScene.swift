import Foundation
import SessionCore
import SessionSDK

/// The quick start as a scripted scene: the seed's app (`StartView`, `SessionView.ViewModel`)
/// on the shared instance, as Alice, and two more users, Bob and Carol, each with an instance
/// of their own, all on the development service of `zoom.us` (Docs/SessionSDK.md). Not seed
/// code: the seed's app is driven here as its buttons would drive it.
///
/// > Important: Main-actor-bound, as the seed's app is.
@MainActor
public final class QuickStartScene {
  /// The domain the seed initializes for.
  public static let domain = "zoom.us"

  let start = StartView()
  let alice = SessionView.ViewModel()
  /// The other users' instances, by name.
  public private(set) var others: [String: VideoSDK] = [:]
  private var stepNumber = 0
  /// Where each step's report goes (standard output by default).
  public var report: (String) -> Void = { print($0) }

  /// A scene; nothing happens until ``run()``.
  public init() {}

  /// Plays the whole scene, reporting each step with what every screen shows.
  public func run() async {
    await step("Alice starts the app (setupSDK) and joins: camera on, mic muted, as the seed asks")
    {
      start.setupSDK()
      alice.userInputJWT = DevelopmentService.token(sessionName: alice.sessionName, role: .host)
      alice.shouldJoin = true
      await alice.joinSession()
    }
    await step("Bob joins with his camera on") { join("Bob", videoOn: true) }
    await step("Carol joins, camera off") { join("Carol", videoOn: false) }
    await step("Alice turns her video off") { alice.toggleVideo() }
    await step("Bob turns his video off") { others["Bob"]?.getVideoHelper().stopVideo() }
    await step("Alice turns her video back on and unmutes") {
      alice.toggleVideo()
      alice.toggleAudio()
    }
    await step("Carol leaves") { _ = others["Carol"]?.leaveSession(false) }
    await step("Alice ends the session") { alice.leaveSession() }
  }

  /// One line per screen: Alice's (the seed's view model) and each other user's roster.
  public var screens: [String] {
    var lines = ["[Alice] " + aliceScreen]
    for name in others.keys.sorted() {
      guard let sdk = others[name] else { continue }
      lines.append("[\(name)] " + Self.screen(of: sdk))
    }
    return lines
  }

  /// What seed 000's `SessionView.body` would show, read from its view model alone.
  var aliceScreen: String {
    if alice.leftSession { return "Session ended (view dismissed)" }
    if alice.joinSessionFailed { return "Alert \"\(alice.errorTitle)\": \(alice.errorMessage)" }
    guard alice.inSession else { return "Loading session..." }
    let remotes = alice.remoteUsers.map { user in
      let on = user.getVideoCanvas()?.videoStatus()?.on ?? false
      return "\(user.getName() ?? "") (video \(on ? "on" : "off"))"
    }
    return [
      "In session",
      alice.videoOn ? "Video on" : "Video off",
      alice.audioOn ? "Mic on" : "Mic muted",
      "Remote: " + (remotes.isEmpty ? "nobody" : remotes.joined(separator: ", ")),
    ].joined(separator: " · ")
  }

  static func screen(of sdk: VideoSDK) -> String {
    guard let session = sdk.getSession() else {
      if case .left(let reason) = sdk.store.state.phase { return "Left (\(reason))" }
      return "Not in a session"
    }
    let roster = session.getOrderedUsers().map { user in
      let on = user.getVideoCanvas()?.videoStatus()?.on ?? false
      return "\(user.getName() ?? "")\(user.isHost() ? " ★" : "") (video \(on ? "on" : "off"))"
    }
    return "In session · " + roster.joined(separator: ", ")
  }

  // MARK: Steps

  func join(_ name: String, videoOn: Bool) {
    let sdk = VideoSDK()
    let initParams = InitParams()
    initParams.domain = Self.domain
    guard sdk.initialize(initParams) == .Errors_Success else { return }
    let context = SessionContext()
    context.token = DevelopmentService.token(sessionName: alice.sessionName)
    context.sessionName = alice.sessionName
    context.userName = name
    context.videoOption.localVideoOn = videoOn
    _ = sdk.joinSession(context)
    others[name] = sdk
  }

  private func step(_ title: String, _ action: () async -> Void) async {
    stepNumber += 1
    await action()
    await settle()
    report("\(stepNumber). \(title)")
    for line in screens { report("   " + line) }
  }

  /// Lets the seed's `Task { await MainActor.run { … } }` hops run: until a few turns in a row
  /// change nothing on any screen for 50 turns of 1 ms, or 5 s.
  func settle() async {
    let deadline = ContinuousClock.now + .seconds(5)
    var last = screens
    var quiet = 0
    while quiet < 50, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
      let now = screens
      quiet = now == last ? quiet + 1 : 0
      last = now
    }
  }
}
