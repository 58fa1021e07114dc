import Foundation
import SessionSimulation
import Testing

/// The HTML report of a run and of a sweep, on synthetic timelines: its hooks, verdict and
/// failures, escaping, self-containment, size at 1,000 peers, and determinism.
@Suite struct HTMLReportTests {
  /// A rendered page, which a failed expectation describes by its size rather than in full.
  struct Page: CustomStringConvertible {
    /// The HTML.
    var text: String

    /// Wraps a rendered page.
    init(_ text: String) { self.text = text }

    /// Its size, not its text.
    var description: String { "<\(text.utf8.count) bytes of HTML>" }

    /// Whether `needle` occurs.
    func contains(_ needle: String) -> Bool { text.contains(needle) }

    /// How often `needle` occurs.
    func count(_ needle: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// Where `needle` first occurs, as a character offset.
    func offset(of needle: String) -> Int? {
      text.range(of: needle).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
    }
  }

  @Test func oneLanePerPeerAndOneFaultElementPerBand() {
    let timeline = SyntheticTimeline.classroom(students: 6, faults: 3)
    let html = Page(HTMLReport.render(timeline))
    #expect(html.count("class=\"lane\"") == 7)
    for peer in timeline.peers {
      #expect(html.count("class=\"lane\" data-peer=\"\(peer.name)\"") == 1)
    }
    #expect(html.count("class=\"fault\"") == 3)
    for kind in ["partition", "loss", "cap"] {
      #expect(html.count("class=\"fault\" data-kind=\"\(kind)\"") == 1)
    }
    #expect(!html.contains("class=\"group-lane\""))
    #expect(!html.contains("class=\"failure-mark\""))
    // The heal, a time axis in seconds, a legend, the roster's host strip, media, histograms.
    #expect(html.contains("heal 43.0 s"))
    #expect(html.contains(">80 s</text>"))
    #expect(html.contains("class=\"legend\""))
    #expect(html.contains("host seen by service"))
    #expect(html.contains("<h3>teacher</h3>"))
    #expect(html.contains("p50 12.5 ms"))
    #expect(html.contains("Nothing was in flight at the end."))
  }

  @Test func foldedGroupsGetALaneEachAndSayWhoIsExpandedAndWhy() {
    let timeline = SyntheticTimeline.large(peers: 200, expanded: 8, samples: 300)
    let html = Page(HTMLReport.render(timeline))
    #expect(html.count("class=\"lane\"") == 8)
    #expect(html.count("class=\"group-lane\"") == timeline.groups.count)
    for group in timeline.groups {
      #expect(html.contains("class=\"group-lane\" data-group=\"\(group.name)\""))
    }
    #expect(html.contains("200 peers: 192 folded into the counts of their group"))
    #expect(html.contains("teacher (host)"))
    #expect(html.contains("student-3 (watched)"))
  }

  @Test func thePassingVerdictIsAtTheTopWithItsReplayCommand() throws {
    let timeline = SyntheticTimeline.classroom(students: 2, faults: 1)
    let html = Page(HTMLReport.render(timeline))
    let verdict = try #require(html.offset(of: "<span class=\"badge\">PASS</span>"))
    let timelineSection = try #require(html.offset(of: "<h2>Timeline</h2>"))
    #expect(verdict < timelineSection)
    #expect(html.contains("<p class=\"summary\">\(timeline.summary)</p>"))
    #expect(html.contains("<pre class=\"replay\"><code>\(timeline.replayCommand)</code></pre>"))
    #expect(html.contains("<title>PASS classroom seed 1: run report</title>"))
    #expect(!html.contains("FAIL"))
  }

  @Test func aFailingRunMarksEachFailureWithExpectedActualAndTheReplay() {
    var timeline = SyntheticTimeline.classroom(students: 4, faults: 2)
    timeline.passed = false
    timeline.summary = "FAIL classroom seed 1: 2 failures"
    timeline.failures = [
      RunTimeline.FailureMark(
        at: 47_000, check: "convergence", peer: "student-2", expected: "host teacher",
        actual: "host student-1", detail: "student-2 disagrees with the service on the host"),
      RunTimeline.FailureMark(
        at: 60_000, check: "liveness", peer: nil, expected: nil, actual: nil,
        detail: "student-3 never rejoined"),
    ]
    let html = Page(HTMLReport.render(timeline))
    #expect(html.contains("<span class=\"badge\">FAIL</span>"))
    #expect(html.count("class=\"failure-mark\"") == 2)
    #expect(html.contains("class=\"failure-mark\" data-check=\"convergence\""))
    #expect(html.contains("expected: host teacher"))
    #expect(html.contains("actual: host student-1"))
    #expect(html.contains("<td><code>host teacher</code></td><td><code>host student-1</code></td>"))
    #expect(html.contains("replay: \(timeline.replayCommand)"))
    #expect(html.contains("<h2>Failures (2)</h2>"))
    #expect(html.count("<code>\(timeline.replayCommand)</code>") == 2)
    #expect(html.contains("student-3 never rejoined"))
  }

  @Test func aSweepListsFailingSeedsFirstAndLinksEachToItsReplayAndReport() throws {
    var failing = SyntheticTimeline.classroom(students: 2, faults: 1, seed: 7)
    failing.passed = false
    failing.failures = [
      RunTimeline.FailureMark(
        at: 30_000, check: "delivery", peer: "student-1", expected: "1 join", actual: "2 joins",
        detail: "duplicate join")
    ]
    let rows = [
      SweepTimeline.Row(
        seed: 7, passed: false, drew: "network 3g, faults 2/min", summary: "FAIL seed 7",
        firstFailure: "delivery: duplicate join", replayCommand: "sessionsim run x.json --seed 7"),
      SweepTimeline.Row(
        seed: 12, passed: false, drew: "", summary: "FAIL seed 12",
        firstFailure: "liveness: student-1 stuck", replayCommand: "sessionsim run x.json --seed 12"),
      SweepTimeline.Row(
        seed: 1, passed: true, drew: "", summary: "PASS seed 1", firstFailure: nil,
        replayCommand: "sessionsim run x.json --seed 1"),
    ]
    let sweep = SweepTimeline(
      scenario: "classroom", mode: "deterministic", rows: rows, runs: [failing])
    let html = Page(HTMLReport.render(sweep))
    let positions = try [7, 12, 1].map { seed in
      try #require(html.offset(of: "<tr id=\"seed-\(seed)\""))
    }
    #expect(positions == positions.sorted())
    #expect(
      html.contains("<tr id=\"seed-7\" class=\"fail\"><td class=\"num\"><a href=\"#run-7\">7</a>"))
    #expect(html.contains("<tr id=\"seed-12\" class=\"fail\"><td class=\"num\">12</td>"))
    for row in rows {
      #expect(html.contains("<code class=\"replay\">\(row.replayCommand)</code>"))
    }
    #expect(html.contains("<section class=\"run\" id=\"run-7\">"))
    #expect(html.contains("<a href=\"#seed-7\">(its row)</a>"))
    #expect(html.contains("id=\"run-7-timeline\""))
    #expect(html.count("class=\"failure-mark\"") == 1)
    #expect(html.contains("1 of 3 seeds passed, 2 failed"))
    #expect(html.count("<script>") == 1)
  }

  @Test func everyStringFromTheRunIsEscaped() {
    let evilPeer = "<script>alert(1)</script>"
    let evilLabel = "partition \"teacher\" & 'service'"
    let evilDetail = "<img src=x onerror=alert(2)>"
    var timeline = SyntheticTimeline.classroom(students: 2, faults: 1)
    timeline.scenario = "class<room>"
    timeline.passed = false
    timeline.summary = "FAIL <b>bold</b>"
    timeline.replayCommand = "sessionsim run 'a b.json' --seed 1 && echo \"<x>\""
    timeline.peers[1].name = evilPeer
    timeline.peers[1].group = "g\"roup"
    timeline.faults[0].label = evilLabel
    timeline.faults[0].peers = [evilPeer]
    timeline.failures = [
      RunTimeline.FailureMark(
        at: 50_000, check: "assertion", peer: evilPeer, expected: "<none>", actual: "a&b",
        detail: evilDetail)
    ]
    timeline.rosters[0].samples[3].host = evilPeer
    timeline.media[0].peer = evilPeer
    timeline.media[0].subscriptions[0].publisher = evilPeer
    timeline.inFlight = ["chat \"<hi>\" from \(evilPeer)"]
    timeline.groups = [RunTimeline.Group(name: "<g>", count: 3, samples: [])]
    timeline.folded = true
    let html = Page(HTMLReport.render(timeline))
    for raw in [
      evilPeer, evilLabel, evilDetail, "<b>bold</b>", "class<room>", "<none>", "a&b", "<g>",
    ] {
      #expect(!html.contains(raw), "\(raw) unescaped")
    }
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(html.contains("data-peer=\"&lt;script&gt;alert(1)&lt;/script&gt;\""))
    #expect(html.contains("partition &quot;teacher&quot; &amp; &#39;service&#39;"))
    #expect(html.contains("&lt;img src=x onerror=alert(2)&gt;"))
    #expect(
      html.contains(
        "sessionsim run &#39;a b.json&#39; --seed 1 &amp;&amp; echo &quot;&lt;x&gt;&quot;"))
    #expect(html.contains("data-group=\"&lt;g&gt;\""))
    // The page's own script is the only one, and it holds no run data.
    #expect(html.count("<script") == 1)
    let script = html.text.components(separatedBy: "<script>").last ?? ""
    #expect(!script.contains("alert"))
  }

  @Test func thePageFetchesNothing() {
    var timeline = SyntheticTimeline.large(peers: 100, expanded: 10, samples: 200)
    timeline.failures = [
      RunTimeline.FailureMark(
        at: 5_000, check: "media", peer: "student-1", expected: "flowing", actual: "frozen",
        detail: "student-1 froze")
    ]
    for html in [
      Page(HTMLReport.render(timeline)),
      Page(
        HTMLReport.render(
          SweepTimeline(scenario: "s", mode: "deterministic", rows: [], runs: [timeline]))),
    ] {
      for reference in [
        "http://", "https://", "<link", "src=", "@import", "url(", "<iframe", "<img",
      ] {
        #expect(!html.contains(reference), "the page holds \(reference)")
      }
      #expect(html.text.hasPrefix("<!DOCTYPE html>"))
      #expect(html.contains("<style>"))
      #expect(html.contains("root.dataset.ready = \"1\""))
      #expect(html.contains("root.dataset.loadMs = String(Math.round(performance.now()))"))
    }
  }

  @Test func aThousandPeerTwoMinuteRunStaysUnderTenMegabytes() {
    let timeline = SyntheticTimeline.large(peers: 1000, expanded: 40, samples: 1200)
    let html = Page(HTMLReport.render(timeline))
    let bytes = html.text.utf8.count
    #expect(bytes < 10_000_000, "\(bytes) bytes")
    #expect(html.count("class=\"lane\"") == 40)
    // Each expanded peer has 1,000 callbacks in 2 minutes: more ticks than the cap, said so.
    #expect(html.count("callbacks (first \(HTMLReport.callbackTickCap))") == 40)
    print("1,000-peer synthetic report: \(bytes) bytes")
  }

  @Test func anEmptyOrOddRunStillRenders() {
    var timeline = SyntheticTimeline.classroom(students: 1, faults: 0)
    timeline.end = 0
    timeline.scriptedEnd = 0
    timeline.peers = []
    timeline.groups = []
    timeline.rosters = []
    timeline.media[0].samples[0].receiveKbps = .nan
    timeline.media[0].samples[1].delayMs = .infinity
    timeline.delay = RunTimeline.Histogram(
      buckets: [.init(upTo: 1e300, count: 1), .init(upTo: .infinity, count: 2)], count: 3,
      p50: .nan, p99: 1e300, max: .infinity)
    timeline.callbackLatency = RunTimeline.Histogram(
      buckets: [], count: 0, p50: 0, p99: 0, max: 0)
    let html = Page(HTMLReport.render(timeline))
    #expect(html.count("class=\"lane\"") == 0)
    #expect(html.contains("<span class=\"badge\">PASS</span>"))
    #expect(html.contains("No fault in this run."))
    #expect(html.contains("No roster was sampled."))
    #expect(html.text.hasSuffix("</html>\n"))
    let empty = SweepTimeline(scenario: "s", mode: "loopback", rows: [], runs: [])
    #expect(Page(HTMLReport.render(empty)).contains("0 of 0 seeds passed"))
  }

  @Test func renderingIsDeterministic() throws {
    let timeline = SyntheticTimeline.large(peers: 300, expanded: 12, samples: 400)
    let first = HTMLReport.render(timeline)
    let second = HTMLReport.render(timeline)
    let same = first == second
    #expect(same, "two renderings differ")
    // The same after a trip through JSON, as `sessionsim report` reads it back.
    let decoded = try JSONDecoder().decode(
      RunTimeline.self, from: JSONEncoder().encode(timeline))
    let sameDecoded = HTMLReport.render(decoded) == first
    #expect(sameDecoded, "the decoded timeline renders differently")
    let sweep = SweepTimeline(
      scenario: "s", mode: "deterministic",
      rows: [
        SweepTimeline.Row(
          seed: 1, passed: true, drew: "", summary: "", firstFailure: nil, replayCommand: "r")
      ], runs: [timeline, timeline])
    let page = Page(HTMLReport.render(sweep))
    let sameSweep = page.text == HTMLReport.render(sweep)
    #expect(sameSweep, "two renderings of the sweep differ")
    // Two runs of one seed: unique anchors, the row linking to the first.
    #expect(page.count("<section class=\"run\" id=\"run-9\">") == 1)
    #expect(page.count("<section class=\"run\" id=\"run-9-2\">") == 1)
    #expect(page.contains("id=\"run-9-2-timeline\""))
  }
}

/// Synthetic timelines for the report's tests: shaped as a recorder would fill them, from a
/// seeded generator so that every call gives the same timeline.
enum SyntheticTimeline {
  /// SplitMix64: a tiny deterministic generator.
  struct Generator {
    /// The state, the seed at first.
    var state: UInt64

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }

    /// A number in `0..<1`.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// An integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
      range.lowerBound + Int(next() % UInt64(range.count))
    }
  }

  /// The classroom's shape: a teacher and `students`, all drawn, 82 s with the heal at 43 s,
  /// sampled every 100 ms, `faults` bands (partition, loss, cap, …), media for the teacher and
  /// three students.
  static func classroom(students: Int, faults: Int, seed: UInt64 = 1) -> RunTimeline {
    var generator = Generator(state: seed)
    let end: Int64 = 82_000
    let interval: Int64 = 100
    let names = ["teacher"] + (1...max(students, 1)).map { "student-\($0)" }.prefix(students)
    let peers = names.enumerated().map { index, name in
      peer(
        name: name, group: index == 0 ? "teacher" : "students", host: index == 0,
        expandedBecause: nil, end: end, callbacks: 120, generator: &generator)
    }
    let kinds: [(String, String, [String])] = [
      ("partition", "partition teacher <-> service", ["teacher", "service"]),
      ("loss", "loss 5% on student-2", ["student-2"]),
      ("cap", "cap student-1 down 300 kbit/s", ["student-1"]),
      ("delay", "delay +80 ms everyone", []),
      ("kill", "kill student-4", ["student-4"]),
    ]
    let bands = (0..<faults).map { index in
      let (kind, label, touched) = kinds[index % kinds.count]
      let from = Int64(25_000 + index * 6_000)
      return RunTimeline.FaultBand(
        from: from, to: min(from + 18_000, end), kind: kind, label: label, peers: touched)
    }
    let samples = Int(end / interval)
    let mediaPeers = Array(names.prefix(4))
    return RunTimeline(
      scenario: "classroom", mode: "deterministic", seed: seed, scriptedEnd: 43_000, end: end,
      sampleInterval: interval, passed: true,
      summary: "PASS classroom seed \(seed): \(names.count) peers, 82.0 s virtual",
      failures: [],
      replayCommand: "sessionsim run Examples/Scenarios/classroom.json --seed \(seed)",
      peerCount: names.count, peers: peers,
      groups: [
        group("teacher", count: 1, samples: samples, interval: interval, generator: &generator),
        group(
          "students", count: students, samples: samples, interval: interval,
          generator: &generator),
      ],
      folded: false, faults: bands,
      rosters: rosters(
        observers: ["service", "student-1"], size: names.count, host: "teacher",
        samples: samples, interval: interval),
      media: mediaPeers.map { name in
        media(
          peer: name, publishers: Array(names.filter { $0 != name }.prefix(6)), samples: samples,
          interval: interval, generator: &generator)
      },
      delay: histogram(p50: 12.5), callbackLatency: histogram(p50: 3.2), inFlight: [])
  }

  /// A large folded run: `peers` in four groups over 2 minutes (`samples` samples), `expanded`
  /// of them drawn in full with 1,000 callbacks each, media and a roster for each expanded peer.
  static func large(peers: Int, expanded: Int, samples: Int) -> RunTimeline {
    var generator = Generator(state: 42)
    let end: Int64 = 120_000
    let interval = end / Int64(samples)
    let students = peers - 1 - peers / 10 - peers / 10
    let groupSizes = [
      ("teacher", 1), ("students", students), ("assistants", peers / 10),
      ("observers", peers / 10),
    ]
    let names = ["teacher"] + (1..<expanded).map { "student-\($0)" }
    let drawn = names.enumerated().map { index, name in
      peer(
        name: name, group: index == 0 ? "teacher" : "students", host: index == 0,
        expandedBecause: index == 0 ? "host" : (index % 5 == 3 ? "watched" : "failed"),
        end: end, callbacks: 1000, generator: &generator)
    }
    let faults = (0..<6).map { index in
      RunTimeline.FaultBand(
        from: Int64(10_000 + index * 15_000), to: Int64(22_000 + index * 15_000),
        kind: HTMLReportTests.faultKinds[index % HTMLReportTests.faultKinds.count],
        label: "fault \(index) on student-\(index + 1)", peers: ["student-\(index + 1)"])
    }
    return RunTimeline(
      scenario: "lecture", mode: "deterministic", seed: 9, scriptedEnd: 90_000, end: end,
      sampleInterval: interval, passed: true, summary: "PASS lecture seed 9",
      failures: [], replayCommand: "sessionsim run lecture.json --seed 9", peerCount: peers,
      peers: drawn,
      groups: groupSizes.map { name, count in
        group(name, count: count, samples: samples, interval: interval, generator: &generator)
      },
      folded: true, faults: faults,
      rosters: rosters(
        observers: ["service"] + names, size: peers, host: "teacher", samples: samples,
        interval: interval),
      media: names.map { name in
        media(
          peer: name, publishers: Array(names.filter { $0 != name }.prefix(10)),
          samples: samples, interval: interval, generator: &generator)
      },
      delay: histogram(p50: 20), callbackLatency: histogram(p50: 4),
      inFlight: [
        "chat 812 from student-3 to everyone: 3 peers still waiting"
      ])
  }

  /// One drawn peer: joins early, video and audio toggling, the host shares and annotates,
  /// a subsession in the middle, a pause for some; `callbacks` callbacks spread over the run.
  static func peer(
    name: String, group: String, host: Bool, expandedBecause: String?, end: Int64,
    callbacks: Int, generator: inout Generator
  ) -> RunTimeline.Peer {
    let join = Int64(generator.int(0...3000))
    var lanes = [
      RunTimeline.Lane(kind: "session", segments: [.init(from: join, to: end, value: "in")])
    ]
    if host {
      lanes.append(
        RunTimeline.Lane(kind: "role", segments: [.init(from: join, to: end, value: "host")]))
    }
    lanes.append(
      RunTimeline.Lane(
        kind: "video", segments: toggles(from: join, to: end, every: 9_000, value: "on", &generator)
      ))
    var audio: [RunTimeline.Segment] = []
    var at = join
    while at < end {
      let length = Int64(generator.int(800...4000))
      audio.append(
        .init(
          from: at, to: min(at + length, end), value: generator.unit() < 0.3 ? "talking" : "muted"))
      at += length
    }
    lanes.append(RunTimeline.Lane(kind: "audio", segments: audio))
    if host {
      lanes.append(
        RunTimeline.Lane(
          kind: "share", segments: [.init(from: 10_000, to: end - 5_000, value: "sharing")]))
      lanes.append(
        RunTimeline.Lane(
          kind: "annotation",
          segments: toggles(
            from: 12_000, to: end - 5_000, every: 4_000, value: "annotating", &generator)))
    } else {
      lanes.append(
        RunTimeline.Lane(
          kind: "subsession",
          segments: [.init(from: 50_000, to: 70_000, value: "Room \(generator.int(1...4))")]))
      if generator.unit() < 0.2 {
        lanes.insert(
          RunTimeline.Lane(
            kind: "life", segments: [.init(from: 30_000, to: 34_000, value: "paused")]),
          at: 0)
      }
    }
    let names = ["onUserJoin", "onUserLeave", "onUserVideoStatusChanged", "onChatNewMessageNotify"]
    let marks = (0..<callbacks).map { index in
      RunTimeline.CallbackMark(
        at: join + Int64(index) * (end - join) / Int64(max(callbacks, 1)),
        name: names[index % names.count])
    }
    return RunTimeline.Peer(
      name: name, group: group, expandedBecause: expandedBecause, lanes: lanes, callbacks: marks)
  }

  /// Segments of `value` alternating with nothing, each about `every` milliseconds.
  static func toggles(
    from start: Int64, to end: Int64, every: Int, value: String, _ generator: inout Generator
  ) -> [RunTimeline.Segment] {
    var segments: [RunTimeline.Segment] = []
    var at = start
    var on = true
    while at < end {
      let length = Int64(generator.int(every / 2...every * 3 / 2))
      if on { segments.append(.init(from: at, to: min(at + length, end), value: value)) }
      on.toggle()
      at += length
    }
    return segments
  }

  /// A group's counts over time, noisy.
  static func group(
    _ name: String, count: Int, samples: Int, interval: Int64, generator: inout Generator
  ) -> RunTimeline.Group {
    let list = (0..<samples).map { index in
      let inSession = max(0, count - generator.int(0...max(count / 20, 0)))
      return RunTimeline.GroupSample(
        at: Int64(index) * interval, inSession: inSession,
        video: Int(Double(inSession) * (0.4 + 0.2 * generator.unit())),
        audio: Int(Double(inSession) * 0.1 * generator.unit()),
        sharing: name == "teacher" && index > samples / 8 ? 1 : 0,
        inSubSession: index > samples / 2 && index < samples * 3 / 4 ? inSession / 2 : 0,
        down: count - inSession)
    }
    return RunTimeline.Group(name: name, count: count, samples: list)
  }

  /// Each observer's roster: the full size, a dip and a host gap during the partition.
  static func rosters(
    observers: [String], size: Int, host: String, samples: Int, interval: Int64
  ) -> [RunTimeline.RosterSeries] {
    observers.map { observer in
      RunTimeline.RosterSeries(
        observer: observer,
        samples: (0..<samples).map { index in
          let at = Int64(index) * interval
          let partitioned = at >= 25_000 && at < 43_000
          return RunTimeline.RosterSample(
            at: at, size: partitioned && at > 36_000 ? size - 1 : size,
            hosts: partitioned && at > 36_000 ? 0 : 1, managers: 1,
            host: partitioned && at > 36_000 ? nil : host)
        })
    }
  }

  /// A peer's media: a noisy bitrate, some loss, freezes and paused tracks during a dip, each
  /// subscription switching layers.
  static func media(
    peer: String, publishers: [String], samples: Int, interval: Int64,
    generator: inout Generator
  ) -> RunTimeline.PeerMedia {
    var list: [RunTimeline.MediaSample] = []
    for index in 0..<samples {
      let at = Int64(index) * interval
      let dip = at >= 30_000 && at < 40_000
      list.append(
        RunTimeline.MediaSample(
          at: at, receiveKbps: (dip ? 400 : 2_000) + 300 * generator.unit(),
          lossPercent: dip ? 4 * generator.unit() : 0.2 * generator.unit(),
          freezes: dip && generator.unit() < 0.05 ? 1 : 0, pausedTracks: dip ? 3 : 0,
          networkLevel: dip ? 1 : 3, delayMs: 10 + 20 * generator.unit()))
    }
    let subscriptions = publishers.enumerated().map { offset, publisher in
      RunTimeline.Subscription(
        publisher: publisher, kind: offset == 0 ? "share" : "video",
        samples: (0..<samples).map { index in
          let at = Int64(index) * interval
          let dip = at >= 30_000 && at < 40_000
          return RunTimeline.SubscriptionSample(
            at: at, kbps: (dip ? 50 : 300) + 40 * generator.unit(), layer: dip ? 0 : 2,
            paused: dip && offset > 6, frozen: false)
        })
    }
    return RunTimeline.PeerMedia(
      peer: peer, samples: list, subscriptions: subscriptions, delay: histogram(p50: 15))
  }

  /// A delay histogram around `p50` milliseconds.
  static func histogram(p50: Double) -> RunTimeline.Histogram {
    let bounds: [Double] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
    let buckets = bounds.enumerated().map { index, bound in
      RunTimeline.Histogram.Bucket(upTo: bound, count: max(0, 400 - abs(index - 4) * 110))
    }
    return RunTimeline.Histogram(
      buckets: buckets, count: buckets.reduce(0) { $0 + $1.count }, p50: p50, p99: p50 * 6,
      max: p50 * 12)
  }
}

extension HTMLReportTests {
  /// The fault kinds a run can have.
  static let faultKinds = [
    "partition", "hold", "loss", "cap", "delay", "kill", "pause", "serviceRestart", "clockSkew",
  ]
}
