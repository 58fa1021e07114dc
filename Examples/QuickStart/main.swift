// The quick start (seed 000) as a scripted scene: two users in one process, each with an SDK
// instance and the seed's view model, talking to an in-process session service.
//
//   swift run quickstart-example
//
// After each step it prints what each user's screen would show.

import SessionCore
import SessionSDK
import SessionService
import SessionTransport

// MARK: The "cloud": a session service and an in-process network to reach it

// A fixed clock keeps the output the same on every run; the service checks tokens against it.
let now: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z, in milliseconds
let credentials = (key: "quickstart-sdk-key", secret: "quickstart-sdk-secret")
let service = SessionService(
  configuration: ServiceConfiguration(credentials: [credentials.key: credentials.secret]))
let network = InProcessNetwork(host: service, now: { now })

// Tokens come from a backend in a real app; TokenMinter does what the seed's JWTGenerator does.
let minter = TokenMinter(appKey: credentials.key, secret: credentials.secret)
func token(_ role: TokenRole, for sessionName: String = "QuickStart") -> String {
  minter.mint(sessionName: sessionName, role: role, issuedAt: now / 1_000 - 30)
}

// MARK: Two app instances

/// The seed's `setupSDK()`, on an instance of our own rather than the shared one.
@MainActor func setupSDK() -> VideoSDK {
  let sdk = VideoSDK()
  let initParams = InitParams()
  initParams.domain = "zoom.us"
  initParams.transport = network
  initParams.clock = { now }
  switch sdk.initialize(initParams) {
  case .success:
    break
  case let error:
    fatalError("SDK initialization failed: \(error.sdkName)")
  }
  return sdk
}

let alice = SessionView.ViewModel(
  sdk: setupSDK(), jwtToken: token(.host), sessionName: "QuickStart", userName: "Alice")
let bob = SessionView.ViewModel(
  sdk: setupSDK(), jwtToken: token(.participant), sessionName: "QuickStart", userName: "Bob")

var stepNumber = 0
@MainActor func step(_ title: String, _ action: () async -> Void) async {
  stepNumber += 1
  print("\(stepNumber). \(title)")
  await action()
  print("   [Alice] \(alice.screen)")
  print("   [Bob]   \(bob.screen)")
}

// MARK: The scene

await step("Alice joins (camera on, mic muted, as the seed's context asks)") {
  await alice.joinSession()
}
await step("Bob joins") { await bob.joinSession() }
await step("Alice turns her video off") { alice.toggleVideo() }
await step("Bob turns his video off") { bob.toggleVideo() }
await step("Bob turns it back on") { bob.toggleVideo() }
await step("Alice unmutes") { alice.toggleAudio() }
await step("Bob unmutes, then mutes again") {
  bob.toggleAudio()
  bob.toggleAudio()
}
await step("Bob leaves") { bob.leaveSession() }
await step("Alice leaves; the session ends") { alice.leaveSession() }

// A refused join: the service checks the token's `tpc` against the session name.
let carol = SessionView.ViewModel(
  sdk: setupSDK(), jwtToken: token(.participant, for: "SomewhereElse"),
  sessionName: "QuickStart", userName: "Carol")
print("\(stepNumber + 1). Carol joins with a token minted for another session")
await carol.joinSession()
print("   [Carol] \(carol.screen)")

print("Live sessions left on the service: \(service.liveSessionNames.count)")
