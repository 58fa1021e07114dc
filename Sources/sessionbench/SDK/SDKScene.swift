import InProcessTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport
import VirtualNetwork

/// What one run of the `sdk` benchmark's scene measured.
struct SDKSceneResult {
  /// The sum of every member's `joinSession` call (after the last the network is quiescent);
  /// every replica was then checked equal to the service.
  var joinStorm: Duration
  /// Each member's `joinSession` call, in join order: admission, the `usersJoined` fan-out to
  /// everyone already there, and the joiner applying its snapshot. The 10th and the last start
  /// on emptied caches.
  var joins: [Duration]
  /// The service's handling of each join message alone, in join order (see ``AdmissionTimer``).
  var admissions: [Duration]
  /// The steady phase: `commands` video and audio toggles, each fanned out to every member.
  var steady: Duration
  /// Callbacks delivered at the instances during the steady phase.
  var deliveries: Int
  /// Building the snapshot the 10th joiner got, from a copy of the service's state then.
  var tenthSnapshot: Duration
  /// Building the snapshot the last joiner got, from the service's state then.
  var lastSnapshot: Duration
}

/// The network a scene runs on.
enum SceneNetwork {
  /// `InProcessNetwork` in immediate mode: every message delivered inside the call that sent
  /// it.
  case inProcess
  /// The deterministic `VirtualNetwork` with ideal links (no delay, no loss) and no
  /// heartbeats: every message an event of its queue, run until idle after each call.
  case virtual
}

/// The `sdk` benchmark's scene: `members` SDK instances join one session one by one, then take
/// turns toggling video and audio.
///
/// Everything runs on the real code: `SessionService` with JWT admission (a token minted per
/// joiner, the first one host), `InProcessNetwork` in immediate mode or the virtual network,
/// `VideoSDK` instances with an observer and a delegate counting callbacks. Setup (instances,
/// tokens) is not timed.
///
/// - Parameters:
///   - members: How many instances join.
///   - commands: Steady-phase commands; member `c % members` sends command `c`.
///   - on: The network.
func runSDKScene(members: Int, commands: Int, on kind: SceneNetwork = .inProcess)
  -> SDKSceneResult
{
  let now: Int64 = 1_767_225_600_000
  let sessionName = "Bench"
  let fixture = SessionFixture(sessionName: sessionName)
  let service = fixture.makeService()
  let timer = AdmissionTimer(service)
  let transports: (Int) -> (any SessionLinkFactory, () -> Int64)
  let settle: () -> Void
  switch kind {
  case .inProcess:
    let network = InProcessNetwork(host: timer, now: { now })
    transports = { _ in (network, { now }) }
    settle = {}
  case .virtual:
    let network = VirtualNetwork(
      seed: 1,
      configuration: VirtualNetworkConfiguration(
        epochMilliseconds: now, heartbeatInterval: 0, heartbeatTimeout: 0))
    network.startHost(timer)
    transports = { index in
      let peer = network.peer("member-\(index + 1)")
      return (peer, peer.clock)
    }
    settle = { network.runUntilIdle() }
  }
  let counter = CallbackCounter()

  var sdks: [VideoSDK] = []
  var contexts: [SessionContext] = []
  for index in 0..<members {
    let sdk = VideoSDK()
    let (transport, clock) = transports(index)
    let status = sdk.initialize(
      InitParams(domain: "zoom.us", transport: transport, clock: clock))
    precondition(status == .success, "initialize: \(status.sdkName)")
    counter.watch(sdk)
    sdks.append(sdk)
    contexts.append(fixture.context(forMember: index, now: now))
  }

  // The join storm.
  // The storm's time is the sum of the joins' times: the two cache evictions are left out.
  let clock = ContinuousClock()
  let joins = joinOneByOne(
    sdks, contexts, coldJoins: [10, members], clock: clock, settle: settle)
  let joinStorm = joins.reduce(.zero, +)
  checkConvergence(sdks, service: service, sessionName: sessionName, after: "the join storm")

  // The steady phase.
  counter.observed = 0
  counter.delegated = 0
  // The snapshot the last joiner got holds everyone: the state right after the storm.
  guard let tenthState = timer.tenthState, let lastState = service.state(ofSession: sessionName)
  else { preconditionFailure("no session state after the join storm") }
  let tenthSnapshot = medianSnapshotBuild(tenthState, clock: clock)
  let lastSnapshot = medianSnapshotBuild(lastState, clock: clock)

  let steadyStart = clock.now
  toggleInTurns(sdks, commands: commands, settle: settle)
  let steady = clock.now - steadyStart
  precondition(
    counter.observed == commands * members && counter.delegated == counter.observed,
    "expected \(commands * members) callbacks, observed \(counter.observed), "
      + "delegated \(counter.delegated)")
  checkConvergence(sdks, service: service, sessionName: sessionName, after: "the steady phase")

  return SDKSceneResult(
    joinStorm: joinStorm, joins: joins,
    admissions: timer.joinDurations, steady: steady,
    deliveries: counter.observed, tenthSnapshot: tenthSnapshot, lastSnapshot: lastSnapshot)
}

/// The median time, over 101 builds, of the snapshot a joiner gets from `state`: what the
/// service's admission spends on the joiner's copy of the roster, its own fan-out.
private func medianSnapshotBuild(_ state: SessionState, clock: ContinuousClock) -> Duration {
  guard let someone = state.participants.keys.first else { return .zero }
  var times: [Duration] = []
  var kept = 0
  for _ in 0..<101 {
    let start = clock.now
    let snapshot = state.snapshot(for: someone, sequence: 1)
    times.append(clock.now - start)
    kept &+= snapshot.participants.count
  }
  blackHole(kept)
  return times.sorted()[times.count / 2]
}

/// Joins every instance, one after the other, and times each join.
///
/// The caches are emptied before the joins numbered in `coldJoins` (1-based), outside the
/// timed region, so that those joins can be compared under equal cache conditions (see
/// ``CacheEviction``). Separate and never inlined so that a profiler can collect this phase
/// alone (`valgrind --tool=callgrind --toggle-collect='*joinOneByOne*'`; the mangled name may
/// abbreviate it).
@inline(never)
private func joinOneByOne(
  _ sdks: [VideoSDK], _ contexts: [SessionContext], coldJoins: Set<Int>, clock: ContinuousClock,
  settle: () -> Void
) -> [Duration] {
  let eviction = CacheEviction()
  var joins: [Duration] = []
  joins.reserveCapacity(sdks.count)
  for index in sdks.indices {
    if coldJoins.contains(index + 1) { eviction.evict() }
    let start = clock.now
    let session = sdks[index].joinSession(contexts[index])
    settle()
    joins.append(clock.now - start)
    precondition(session != nil && sdks[index].isInSession(), "member \(index + 1) not in")
  }
  return joins
}

/// Member `c % count` sends command `c`: start video, mute, stop video, unmute, round by round.
///
/// Never inlined, for the same reason as ``joinOneByOne(_:_:coldJoins:clock:settle:)``.
@inline(never)
private func toggleInTurns(_ sdks: [VideoSDK], commands: Int, settle: () -> Void) {
  for command in 0..<commands {
    let sdk = sdks[command % sdks.count]
    let result: VideoSDKError
    switch (command / sdks.count) % 4 {
    case 0: result = sdk.getVideoHelper().startVideo()
    case 1: result = sdk.getAudioHelper().muteAudio(sdk.getSession()?.getMySelf())
    case 2: result = sdk.getVideoHelper().stopVideo()
    default: result = sdk.getAudioHelper().unmuteAudio(sdk.getSession()?.getMySelf())
    }
    precondition(result == .success, "command \(command): \(result.sdkName)")
    settle()
  }
}

/// Stops the benchmark unless every member's shared facts equal the service's.
private func checkConvergence(
  _ sdks: [VideoSDK], service: SessionService, sessionName: String, after phase: String
) {
  guard let facts = service.state(ofSession: sessionName)?.sharedFacts else {
    preconditionFailure("no session after \(phase)")
  }
  for (index, sdk) in sdks.enumerated() where sdk.store.state.sharedFacts != facts {
    preconditionFailure("member \(index + 1) differs from the service after \(phase)")
  }
}
