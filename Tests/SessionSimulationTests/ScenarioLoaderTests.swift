import Foundation
import SessionTransport
import Testing

@testable import SessionSimulation

/// A scenario every validation rule allows, for the tests to break one field at a time.
private func validScenario() -> Scenario {
  ScenarioBuilder("valid", duration: .seconds(30))
    .session("Room")
    .network(.symmetric(LinkSpec(delay: .ms(10), loss: 0.01)))
    .peer("host", role: .host)
    .group(
      "p-{i}", count: 3, join: .between(.seconds(1), .seconds(2)),
      media: PeerMediaSpec(send: .p360, subscribe: SubscribeSpec(video: ["host", "p-*"]))
    )
    .at(.seconds(2), "host", .chatTo, target: "p-1", text: "hi")
    .behaviour("p-*", chatPerMinute: 1)
    .fault(at: .seconds(5), .partition, groups: [["p-*"], ["service"]], for: .seconds(2))
    .fault(at: .seconds(6), .impair, peers: "p-1", network: .symmetric(LinkSpec(loss: 0.5)))
    .randomFault(.kill, peers: "p-*", perMinute: 1)
    .swarm(SwarmSpec(loss: [0, 0.1], killsPerMinute: [0, 1]))
    .expect(at: .seconds(3), peers: "p-*", host: "host", sees: ["p-2"])
    .build()
}

/// One broken field and the path its error must name.
struct BadField: Sendable, CustomTestStringConvertible {
  let path: String
  let change: @Sendable (inout Scenario) -> Void
  init(_ path: String, _ change: @escaping @Sendable (inout Scenario) -> Void) {
    self.path = path
    self.change = change
  }
  var testDescription: String { path }
}

private let badFields: [BadField] = [
  BadField("name") { $0.name = "" },
  BadField("name") { $0.name = String(repeating: "n", count: 201) },
  BadField("duration") { $0.duration = .zero },
  BadField("duration") { $0.duration = .seconds(24 * 3_600 + 1) },
  BadField("expect.liveness") { $0.expect.liveness = .seconds(1e30) },
  BadField("session.name") { $0.session.name = "" },
  BadField("session.name") { $0.session.name = String(repeating: "s", count: 151) },
  BadField("peers[1].count") { $0.peers[1].count = 0 },
  BadField("peers[1].count") { $0.peers[1].count = Int.max },
  BadField("peers[1].name") { $0.peers[1].name = "p" },
  BadField("peers[2]") { $0.peers.append(PeerSpec(name: "q-{i}", count: 4_998)) },
  BadField("peers[0].name") { $0.peers[0].name = "" },
  BadField("peers[0].name") { $0.peers[0].name = "a*b" },
  BadField("peers[0].name") { $0.peers[0].name = String(repeating: "é", count: 101) },
  BadField("peers[0].name") { $0.peers[0].name = "service" },
  BadField("peers[2].name") { $0.peers.append(PeerSpec(name: "host")) },
  BadField("peers[2].name") { $0.peers.append(PeerSpec(name: "p-{i}", count: 1)) },

  BadField("peers[0].network.uplink.loss") {
    $0.peers[0].network = NetworkSpec(uplink: LinkSpec(loss: 2))
  },
  BadField("peers") { $0.peers = [] },
  BadField("network.both.loss") { $0.network = .symmetric(LinkSpec(loss: -0.1)) },
  BadField("network.both.loss") { $0.network = .symmetric(LinkSpec(loss: .nan)) },
  BadField("network.downlink.duplicate") {
    $0.network = NetworkSpec(downlink: LinkSpec(duplicate: 1.5))
  },
  BadField("network.both.burstLength") { $0.network = .symmetric(LinkSpec(burstLength: 0.5)) },
  BadField("network.both.burstLength") {
    $0.network = .symmetric(LinkSpec(burstLength: .infinity))
  },
  BadField("network.both.queueBytes") { $0.network = .symmetric(LinkSpec(queueBytes: 0)) },
  BadField("network.both.queueBytes") { $0.network = .symmetric(LinkSpec(queueBytes: .max)) },
  BadField("network.both") { $0.network = .symmetric(LinkSpec(delay: .seconds(3_601))) },
  BadField("network.uplink") { $0.network = NetworkSpec(uplink: LinkSpec(jitter: .ms(.max))) },
  BadField("actions[0].peer") { $0.actions[0].peer = "nobody" },
  BadField("actions[0].peer") { $0.actions[0].peer = "x-*" },
  BadField("actions[0].target") { $0.actions[0].target = "p-*" },
  BadField("actions[0].text") { $0.actions[0].text = String(repeating: "t", count: 20_001) },
  BadField("behaviours[0].peers") { $0.behaviours[0].peers = "q-*" },
  BadField("behaviours[0]") { $0.behaviours[0].chatPerMinute = -1 },
  BadField("behaviours[0]") { $0.behaviours[0].leavePerMinute = 601 },
  BadField("behaviours[0]") { $0.behaviours[0].talkPerMinute = .nan },
  BadField("faults[1].peers") { $0.faults[1].peers = "ghost" },
  BadField("faults[0].groups") { $0.faults[0].groups = [["p-*"]] },
  BadField("faults[0].groups") { $0.faults[0].groups = [["p-*"], []] },
  BadField("faults[0].groups") { $0.faults[0].groups = [["ghost-*"], ["service"]] },
  BadField("faults[1].network") { $0.faults[1].network = nil },
  BadField("faults[1].network.both.loss") {
    $0.faults[1].network = .symmetric(LinkSpec(loss: 7))
  },
  BadField("randomFaults[0].peers") { $0.randomFaults[0].peers = "ghost" },
  BadField("randomFaults[0].perMinute") { $0.randomFaults[0].perMinute = -0.5 },
  BadField("randomFaults[0].perMinute") { $0.randomFaults[0].perMinute = .infinity },
  BadField("randomFaults[0].network.both.queueBytes") {
    $0.randomFaults[0].network = .symmetric(LinkSpec(queueBytes: -1))
  },
  BadField("expect.assertions[0].peers") { $0.expect.assertions[0].peers = "ghost-*" },
  BadField("expect.assertions[0]") { $0.expect.assertions[0].host = "ghost" },
  BadField("expect.assertions[0]") { $0.expect.assertions[0].managers = ["ghost"] },
  BadField("expect.assertions[0]") { $0.expect.assertions[0].doesNotSee = ["p-*"] },
  BadField("expect.assertions[0]") { $0.expect.assertions[0].sharing = ["ghost"] },
  BadField("expect.assertions[0]") { $0.expect.assertions[0].videoOn = ["ghost"] },
  BadField("peers[1].media.frameRate") { $0.peers[1].media?.frameRate = 0 },
  BadField("peers[1].media.frameRate") { $0.peers[1].media?.frameRate = 61 },
  BadField("peers[1].media.send") { $0.peers[1].media?.send = .auto },
  BadField("peers[1].media.subscribe.maxVideo") { $0.peers[1].media?.subscribe.maxVideo = -1 },
  BadField("peers[1].media.subscribe.maxVideo") { $0.peers[1].media?.subscribe.maxVideo = 101 },
  BadField("peers[1].media.subscribe.video[1]") { $0.peers[1].media?.subscribe.video[1] = "p*-" },
  BadField("peers[1].media.subscribe.video[0]") { $0.peers[1].media?.subscribe.video[0] = "" },
  BadField("expect.media.maxLossPercent") {
    $0.expect.media = MediaExpectations(maxLossPercent: 101)
  },
  BadField("expect.media.maxLossPercent") {
    $0.expect.media = MediaExpectations(maxLossPercent: .nan)
  },
  BadField("expect.media.maxP99DelayMs") {
    $0.expect.media = MediaExpectations(maxP99DelayMs: -1)
  },
  BadField("swarm.loss") { $0.swarm?.loss = [0, 2] },
  BadField("swarm.loss") { $0.swarm?.loss = [0.5, 0.1] },
  BadField("swarm.loss") { $0.swarm?.loss = [0.1] },
  BadField("swarm.delayMs") { $0.swarm?.delayMilliseconds = [0, 1e9] },
  BadField("swarm.jitterMs") { $0.swarm?.jitterMilliseconds = [-1, 1] },
  BadField("swarm.partitionsPerMinute") { $0.swarm?.partitionsPerMinute = [0, .nan] },
  BadField("swarm.holdsPerMinute") { $0.swarm?.holdsPerMinute = [0, 601] },
  BadField("swarm.killsPerMinute") { $0.swarm?.killsPerMinute = [2, 1] },
  BadField("swarm.pausesPerMinute") { $0.swarm?.pausesPerMinute = [] },
  BadField("swarm.serviceKillsPerMinute") { $0.swarm?.serviceKillsPerMinute = [0, 1, 2] },
]

@Suite struct ScenarioLoaderTests {
  // MARK: Validation, both ways

  @Test func theValidScenarioPasses() throws {
    try ScenarioLoader.validate(validScenario())
    let reloaded = try ScenarioLoader.load(ScenarioLoader.encode(validScenario()))
    #expect(reloaded == validScenario())
  }

  @Test(arguments: badFields)
  func eachBadFieldIsRefusedAtItsPath(_ bad: BadField) {
    var scenario = validScenario()
    bad.change(&scenario)
    #expect {
      try ScenarioLoader.validate(scenario)
    } throws: { error in
      (error as? ScenarioError)?.path == bad.path
    }
  }

  @Test func edgesOfEachRangeAreAllowed() throws {
    var scenario = validScenario()
    scenario.name = String(repeating: "n", count: 200)
    scenario.duration = ScenarioLoader.maxDuration
    scenario.expect.liveness = ScenarioLoader.maxDuration
    scenario.session.name = String(repeating: "s", count: 150)
    scenario.peers[0].name = String(repeating: "h", count: 200)
    scenario.expect.assertions[0].host = scenario.peers[0].name
    scenario.actions[0].peer = scenario.peers[0].name
    scenario.peers[1].count = ScenarioLoader.maxPeers - 1
    scenario.network = .symmetric(
      LinkSpec(
        delay: .seconds(3_600), jitter: .seconds(3_600), loss: 1, burstLength: 10_000,
        queueBytes: 1_073_741_824, duplicate: 0))
    scenario.actions[0].text = String(repeating: "t", count: 20_000)
    scenario.behaviours[0].chatPerMinute = 600
    scenario.behaviours[0].leavePerMinute = 0
    // Each edge alone; the rates on one peer, so that together they stay within the bound on
    // expected steps (ExpectedStepTests).
    scenario.behaviours[0].peers = scenario.peers[0].name
    scenario.randomFaults[0].perMinute = 600
    scenario.swarm = SwarmSpec(
      loss: [1, 1], delayMilliseconds: [0, 60_000], serviceKillsPerMinute: [0, 600])
    scenario.faults[0].groups = [["service"], [scenario.peers[0].name, "p-*"]]
    try ScenarioLoader.validate(scenario)
  }

  // MARK: Decoding errors name their path

  private static let minimal =
    #"{"name": "m", "duration": "5s", "session": {"name": "R"}, "peers": [{"name": "a"}]"#

  private func load(_ extra: String) throws -> Scenario {
    try ScenarioLoader.load(Data((Self.minimal + extra + "}").utf8))
  }

  @Test func aMinimalFileLoadsWithItsDefaults() throws {
    let scenario = try load("")
    #expect(scenario.peers[0].join == .exactly(.zero))
    #expect(scenario.peers[0].count == 1)
    #expect(scenario.peers[0].role == .participant)
    #expect(scenario.peers[0].audio && scenario.peers[0].muted && !scenario.peers[0].video)
    #expect(scenario.peers[0].token == .valid)
    #expect(scenario.expect == Expectations())
    #expect(scenario.expect.liveness == .seconds(20))
    #expect(scenario.actions.isEmpty && scenario.faults.isEmpty && scenario.swarm == nil)
  }

  @Test func aNullJoinMeansNeverByItself() throws {
    let data = Data(
      #"{"name": "m", "duration": "5s", "session": {"name": "R"}, "peers": [{"name": "a", "join": null}]}"#
        .utf8)
    #expect(try ScenarioLoader.load(data).peers[0].join == nil)
  }

  @Test(arguments: [
    (#", "actions": [{"at": "-1s", "peer": "a", "do": "chat"}]"#, "actions[0].at"),
    (#", "actions": [{"at": -5, "peer": "a", "do": "chat"}]"#, "actions[0].at"),
    (#", "actions": [{"at": "1s", "peer": "a", "do": "dance"}]"#, "actions[0].do"),
    (#", "actions": [{"at": "1s", "do": "chat"}]"#, "actions[0].peer"),
    (#", "actions": [{"at": true, "peer": "a", "do": "chat"}]"#, "actions[0].at"),
    (#", "faults": [{"at": "1s", "kind": "meteor"}]"#, "faults[0].kind"),
    (#", "faults": [{"at": "1s", "kind": "kill", "for": "soon"}]"#, "faults[0].for"),
    (#", "network": {"both": {"bandwidth": "fast"}}"#, "network.both.bandwidth"),
    (#", "network": {"both": {"bandwidth": 0}}"#, "network.both.bandwidth"),
    (
      #", "behaviours": [{"peers": "a", "rejoinAfter": {"from": "5s", "to": "1s"}}]"#,
      "behaviours[0].rejoinAfter.to"
    ),
    (#", "expect": {"liveness": "forever"}"#, "expect.liveness"),
    (#", "expect": {"media": {"tracks": "all"}}"#, "expect.media.tracks"),
    (
      #", "expect": {"assertions": [{"at": "1s", "rosterCount": "two"}]}"#,
      "expect.assertions[0].rosterCount"
    ),
  ])
  func decodingErrorsNameTheirPath(_ extra: String, _ path: String) {
    #expect {
      try load(extra)
    } throws: { error in
      (error as? ScenarioError)?.path == path
    }
  }

  @Test func wrongTypesAndMissingKeysAreRefused() {
    #expect(throws: ScenarioError.self) { try ScenarioLoader.load(Data("[]".utf8)) }
    #expect(throws: ScenarioError.self) { try ScenarioLoader.load(Data("not json".utf8)) }
    #expect {
      try ScenarioLoader.load(Data(#"{"name": "m", "session": {"name": "R"}, "peers": []}"#.utf8))
    } throws: { error in
      (error as? ScenarioError)?.path == "duration"
    }
    #expect {
      try ScenarioLoader.load(
        Data(
          #"{"name": "m", "duration": "5s", "session": {"name": "R"}, "peers": [{"name": 3}]}"#.utf8
        ))
    } throws: { error in
      (error as? ScenarioError)?.path == "peers[0].name"
    }
    #expect(throws: ScenarioError.self) { try ScenarioLoader.load(path: "/nonexistent/x.json") }
  }

  @Test func hugeNumbersDoNotTrap() throws {
    for extra in [
      #", "actions": [{"at": 1e300, "peer": "a", "do": "chat"}]"#,
      #", "actions": [{"at": "9e18s", "peer": "a", "do": "chat"}]"#,
      #", "faults": [{"at": "1s", "kind": "clockSkew", "skewMs": 9223372036854775807}]"#,
      #", "peers": [{"name": "a"}, {"name": "b-{i}", "count": 9223372036854775807}]"#,
      #", "randomFaults": [{"kind": "kill", "perMinute": 1e308}]"#,
    ] {
      // Either a clear refusal or a scenario that validates: never a trap.
      _ = try? load(extra)
    }
    let scenario = try load(#", "actions": [{"at": 1e300, "peer": "a", "do": "chat"}]"#)
    #expect(scenario.actions[0].at.milliseconds >= Int64.max / 4)
    let longRun = Data(
      #"{"name": "m", "duration": "1e300h", "session": {"name": "R"}, "peers": [{"name": "a"}]}"#
        .utf8)
    #expect {
      try ScenarioLoader.load(longRun)
    } throws: { error in
      (error as? ScenarioError)?.path == "duration"
    }
    // A seed that is no UInt64 is refused (Foundation names no path for a number out of range).
    for seed in ["-1", "1e40", "18446744073709551616"] {
      #expect(throws: ScenarioError.self) { try load(#", "seed": "# + seed) }
    }
  }

  // MARK: Durations and bit rates

  @Test(
    arguments: [
      ("250ms", 250), ("5s", 5_000), ("1.5s", 1_500), ("2m", 120_000), ("1h", 3_600_000),
      ("1500", 1_500), (" 3s ", 3_000), ("0", 0), ("0.4ms", 0), ("0.6ms", 1),
    ] as [(String, Int64)])
  func durationsParse(_ text: String, _ milliseconds: Int64) {
    #expect(SimDuration.parse(text)?.milliseconds == milliseconds)
  }

  @Test(arguments: ["", "-1s", "5 days", "s", "abc", "nan", "infs", "1e400s", "--5ms", "5sec"])
  func nonDurationsAreRefused(_ text: String) {
    #expect(SimDuration.parse(text) == nil)
  }

  @Test func durationsWriteTheirShortestForm() throws {
    #expect(SimDuration.ms(250).description == "250ms")
    #expect(SimDuration.seconds(5).description == "5s")
    #expect(SimDuration.seconds(120).description == "2m")
    #expect(SimDuration.zero.description == "0s")
    #expect(SimDuration(milliseconds: -5) == .zero)
    #expect(SimDuration.seconds(.infinity).milliseconds == Int64.max / 4)
    #expect(SimDuration.seconds(-.infinity) == .zero)
    for value in [SimDuration.ms(1), .ms(1_500), .seconds(90), .ms(86_400_000)] {
      #expect(SimDuration.parse(value.description) == value)
    }
  }

  @Test(
    arguments: [
      ("2Mbps", 2e6), ("500kbps", 5e5), ("1.5Gbps", 1.5e9), ("64000bps", 64_000), ("64000", 64_000),
      ("2MBPS", 2e6),
    ] as [(String, Double)])
  func bitratesParse(_ text: String, _ bitsPerSecond: Double) {
    #expect(Bitrate.parse(text)?.bitsPerSecond == bitsPerSecond)
  }

  @Test(arguments: ["", "0Mbps", "-1kbps", "fast", "infMbps", "nanbps", "Mbps"])
  func nonBitratesAreRefused(_ text: String) {
    #expect(Bitrate.parse(text) == nil)
  }

  @Test func rangesDecodeBothWays() throws {
    let decoder = JSONDecoder()
    let single = try decoder.decode([SimDurationRange].self, from: Data(#"["5s"]"#.utf8))
    #expect(single == [.exactly(.seconds(5))])
    let spread = try decoder.decode(
      [SimDurationRange].self, from: Data(#"[{"from": "1s", "to": 2500}]"#.utf8))
    #expect(spread == [.between(.seconds(1), .ms(2_500))])
    #expect(throws: DecodingError.self) {
      try decoder.decode([SimDurationRange].self, from: Data(#"[{"from": "3s", "to": "1s"}]"#.utf8))
    }
    #expect(SimDurationRange.between(.seconds(3), .seconds(1)).to == .seconds(3))
  }
}

@Suite struct ScenarioBuilderTests {
  @Test func theBuilderMakesWhatTheFileSays() throws {
    let file = try PackageFiles.example("classroom")
    let built = try ScenarioBuilder("classroom", duration: .seconds(70))
      .description(file.description ?? "")
      .seed(1)
      .session("Algebra101")
      .network(.symmetric(LinkSpec(delay: .ms(15), jitter: .ms(5))))
      .peer(
        "teacher", role: .host, video: true, muted: false,
        media: PeerMediaSpec(
          send: .p720, subscribe: SubscribeSpec(video: ["student-*"], resolution: .p180))
      )
      .group(
        "student-{i}", count: 30, join: .between(.seconds(1), .seconds(4)), video: true,
        media: PeerMediaSpec(
          send: .p180,
          subscribe: SubscribeSpec(video: ["teacher", "student-*"], maxVideo: 25, share: true))
      )
      .at(.seconds(5), "teacher", .startShare)
      .at(.seconds(6), "teacher", .startAnnotation)
      .at(.seconds(7), "student-1", .startAnnotation, target: "teacher")
      .at(.seconds(8), "teacher", .chat, text: "Open your books at page 12")
      .at(.seconds(9), "student-7", .chatTo, target: "teacher", text: "Which exercise?")
      .at(.seconds(10), "student-1", .stopAnnotation)
      .at(.seconds(11), "teacher", .clearAnnotation, text: "all")
      .at(.seconds(12), "teacher", .muteAll, value: true)
      .at(.seconds(15), "student-3", .unmute)
      .at(.seconds(55), "teacher", .chat, text: "Sorry, my network dropped")
      .at(.seconds(60), "teacher", .stopShare)
      .behaviour("student-*", videoTogglePerMinute: 0.5, chatPerMinute: 1)
      .partition(at: .seconds(25), ["teacher"], for: .seconds(18))
      .expect(liveness: .seconds(20), media: MediaExpectations(tracks: true))
      .expect(at: .ms(5_500), rosterCount: 31, sharing: ["teacher"])
      .expect(at: .seconds(20), host: "teacher", rosterCount: 31, videoOn: ["teacher"])
      .expect(at: .seconds(35), peers: "student-*", host: "teacher", sees: ["teacher"])
      .expect(at: .seconds(50), host: "teacher", rosterCount: 31, sharing: ["teacher"])
      .expect(at: .seconds(65), host: "teacher", rosterCount: 31)
      .validated()
    #expect(built == file)
  }

  @Test func everyStepMatchesItsJSON() throws {
    let json = #"""
      {
        "name": "all", "description": "every step", "seed": 7, "duration": "1m",
        "session": {"name": "Room", "password": "pw"},
        "service": {"heartbeatTimeout": "5s", "reconnectGrace": 0, "maxUsers": 50},
        "network": {"both": {"delay": "20ms", "distribution": {"kind": "exponential", "mean": "5ms"}},
                    "uplink": {"bandwidth": "2Mbps", "queueBytes": 1000}},
        "peers": [
          {"name": "h", "role": "host", "join": null, "token": "expired", "password": "x",
           "clockSkewMs": -200, "video": true, "audio": false, "muted": false},
          {"name": "g-{i}", "count": 2, "join": "3s", "network": {"downlink": {"loss": 0.1}}}
        ],
        "actions": [{"at": "1s", "peer": "h", "do": "join"},
                    {"at": "2s", "peer": "g-*", "do": "rename", "text": "G", "target": "h"}],
        "behaviours": [{"peers": "g-*", "leavePerMinute": 1, "rejoinAfter": {"from": "1s", "to": "2s"},
                        "talkPerMinute": 3, "talkFor": "500ms"}],
        "faults": [{"at": "10s", "kind": "hold", "peers": "g-1", "direction": "uplink", "for": "2s"},
                   {"at": "12s", "kind": "clockSkew", "peers": "h", "skewMs": 100},
                   {"at": "14s", "kind": "partition", "groups": [["g-1"], ["service"]], "oneWay": true}],
        "randomFaults": [{"kind": "impair", "peers": "g-*", "perMinute": 2, "duration": "3s",
                          "network": {"both": {"loss": 0.5}}, "start": "5s", "end": "50s"}],
        "swarm": {"loss": [0, 0.1], "faultDuration": {"from": "1s", "to": "3s"}},
        "expect": {"invariants": false, "convergence": true, "liveness": "30s", "delivery": false,
                   "assertions": [{"at": "20s", "peers": "g-*", "inSession": true, "managers": [],
                                   "doesNotSee": ["h"], "shareLocked": false}]}
      }
      """#
    let file = try ScenarioLoader.load(Data(json.utf8))
    let built = try ScenarioBuilder("all", duration: .seconds(60))
      .description("every step")
      .seed(7)
      .session("Room", password: "pw")
      .service(heartbeatTimeout: .seconds(5), reconnectGrace: .zero, maxUsers: 50)
      .network(
        NetworkSpec(
          both: LinkSpec(delay: .ms(20), distribution: .init(kind: .exponential, mean: .ms(5))),
          uplink: LinkSpec(bandwidth: Bitrate(bitsPerSecond: 2e6), queueBytes: 1_000))
      )
      .peer(
        "h", role: .host, join: nil, video: true, audio: false, muted: false, token: .expired,
        password: "x", clockSkewMilliseconds: -200
      )
      .group(
        "g-{i}", count: 2, join: .exactly(.seconds(3)),
        network: NetworkSpec(downlink: LinkSpec(loss: 0.1))
      )
      .at(.seconds(1), "h", .join)
      .at(.seconds(2), "g-*", .rename, target: "h", text: "G")
      .behaviour(
        "g-*", leavePerMinute: 1, rejoinAfter: .between(.seconds(1), .seconds(2)),
        talkPerMinute: 3, talkFor: .exactly(.ms(500))
      )
      .fault(at: .seconds(10), .hold, peers: "g-1", direction: .uplink, for: .seconds(2))
      .fault(at: .seconds(12), .clockSkew, peers: "h", skewMilliseconds: 100)
      .partition(at: .seconds(14), ["g-1"], oneWay: true)
      .randomFault(
        .impair, peers: "g-*", perMinute: 2, duration: .exactly(.seconds(3)),
        network: .symmetric(LinkSpec(loss: 0.5)), start: .seconds(5), end: .seconds(50)
      )
      .swarm(SwarmSpec(loss: [0, 0.1], faultDuration: .between(.seconds(1), .seconds(3))))
      .expect(invariants: false, liveness: .seconds(30), delivery: false)
      .expect(
        at: .seconds(20), peers: "g-*", inSession: true, managers: [], doesNotSee: ["h"],
        shareLocked: false
      )
      .validated()
    #expect(built == file)
  }

  @Test func stepsMakeNewValues() throws {
    let base = ScenarioBuilder("v", duration: .seconds(5)).peer("a")
    let one = base.peer("b")
    let other = base.group("c-{i}", count: 2)
    #expect(base.build().peers.count == 1)
    #expect(one.build().peers.map(\.name) == ["a", "b"])
    #expect(other.build().peers.flatMap(\.names) == ["a", "c-1", "c-2"])
    #expect(base.build().session.name == "v")
    #expect(ScenarioBuilder(one.build()) == one)
  }

  @Test func validatedRefusesWhatTheLoaderRefuses() {
    #expect {
      try ScenarioBuilder("bad", duration: .seconds(5)).peer("a").at(.seconds(1), "b", .chat)
        .validated()
    } throws: { error in
      (error as? ScenarioError)?.path == "actions[0].peer"
    }
    #expect(throws: ScenarioError.self) {
      try ScenarioBuilder("empty", duration: .seconds(5)).validated()
    }
  }
}

/// A misspelt key is an error at its path; every key the format documents is accepted.
@Suite struct ScenarioKeyTests {
  private let base = """
    {"name": "k", "duration": "5s", "session": {"name": "Room"},
     "peers": [{"name": "a", "join": {"from": "0s", "to": "1s"}}]
    """

  @Test(arguments: [
    (#", "liveliness": "5s"}"#, "liveliness"),
    (#", "expect": {"liveliness": "5s"}}"#, "expect.liveliness"),
    (#", "faults": [{"at": "1s", "kind": "heal", "duration": "2s"}]}"#, "faults[0].duration"),
    (#", "network": {"both": {"lost": 0.1}}}"#, "network.both.lost"),
    (#", "expect": {"assertions": [{"at": "1s", "hosts": "a"}]}}"#, "expect.assertions[0].hosts"),
    (#", "expect": {"media": {"track": true}}}"#, "expect.media.track"),
  ])
  func aMisspeltKeyIsRefusedAtItsPath(_ tail: String, _ path: String) throws {
    let data = Data((base + tail).utf8)
    let error = try #require(throws: ScenarioError.self) { try ScenarioLoader.load(data) }
    #expect(error.path == path)
    #expect(error.reason.hasPrefix("unknown key"))
  }

  @Test func aMisspeltMediaKeyIsRefusedAtItsPath() throws {
    let file = """
      {"name": "k", "duration": "5s", "session": {"name": "Room"},
       "peers": [{"name": "a", "media": {"send": "180p", "subscribe": {"vidoe": ["b"]}}}]}
      """
    let error = try #require(throws: ScenarioError.self) {
      try ScenarioLoader.load(Data(file.utf8))
    }
    #expect(error.path == "peers[0].media.subscribe.vidoe")
    let fine = file.replacingOccurrences(of: "vidoe", with: "video")
    let scenario = try ScenarioLoader.load(Data(fine.utf8))
    #expect(scenario.peers[0].media?.subscribe.watches("b") == true)
    #expect(scenario.peers[0].media?.subscribe.watches("a") == false)
  }

  @Test func everyExampleUsesOnlyKnownKeys() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/Scenarios")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".json") }
    #expect(files.count == PackageFiles.allExampleNames.count)
    for file in files {
      let data = try Data(contentsOf: folder.appendingPathComponent(file))
      #expect(ScenarioKeys.firstUnknownKey(in: data) == nil, "\(file)")
    }
  }

  @Test func aScenarioWrittenByTheEncoderReadsBack() throws {
    let scenario = try ScenarioBuilder("round-trip", duration: .seconds(5))
      .peer("a", role: .host)
      .validated()
    #expect(ScenarioKeys.firstUnknownKey(in: ScenarioLoader.encode(scenario)) == nil)
    #expect(try ScenarioLoader.load(ScenarioLoader.encode(scenario)) == scenario)
  }
}

/// A run draws every behaviour step and random fault when it starts, so a file cannot ask for
/// more than memory holds: within the bound it loads, past it it is refused with the count.
@Suite struct ExpectedStepTests {
  private func scenario(peers: Int, rate: Double, duration: SimDuration) -> Scenario {
    Scenario(
      name: "steps", duration: duration, session: SessionSpec(name: "Room"),
      peers: [PeerSpec(name: "p-{i}", count: peers)],
      behaviours: [BehaviourSpec(peers: "p-*", videoTogglePerMinute: rate, chatPerMinute: rate)])
  }

  @Test func aBusyButBoundedScenarioLoads() throws {
    // 1,000 peers × 2 × 60/min × 10 min = 1.2 M steps.
    try ScenarioLoader.validate(scenario(peers: 1_000, rate: 60, duration: .seconds(600)))
  }

  @Test func aScenarioExpectingTooManyStepsIsRefused() throws {
    // 5,000 peers × 2 × 600/min × 24 h would be 8.6 billion steps.
    let error = try #require(throws: ScenarioError.self) {
      try ScenarioLoader.validate(scenario(peers: 5_000, rate: 600, duration: .seconds(86_400)))
    }
    #expect(error.path == "behaviours")
    #expect(error.reason.contains("at most 5000000"))
  }
}
