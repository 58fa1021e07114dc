import Testing

@testable import SessionSimulation

/// What was in flight at a run's end, in words.
@Suite struct InFlightSummaryTests {
  @Test func mediaDatagramsAtTheEndAreOneHarmlessLine() {
    let lines =
      (1...30).map {
        "service->student-\($0) datagram (647 bytes) (datagram, inFlight, sent at 81981403)"
      } + ["teacher->service datagram (1200 bytes) (datagram, inFlight, sent at 81981500)"]
    let words = InFlightSummary.describe(lines)
    #expect(words.count == 1)
    #expect(words[0].hasPrefix("31 media datagrams on their way"))
    #expect(words[0].contains("service → 30 peers"))
    #expect(words[0].contains("teacher → service"))
    #expect(words[0].contains("harmless"))
  }

  @Test func aHeldSignallingMessageIsWorthALook() {
    let words = InFlightSummary.describe([
      "service->bob c4 events #7 (reliable, held, sent at 1500)",
      "alice->service c1 ping (reliable, inFlight, sent at 1600)",
    ])
    #expect(words.count == 2)
    #expect(words[0].hasPrefix("1 events message held behind a partition or hold (service → bob)"))
    #expect(words[0].contains("worth a look"))
    #expect(words[1].hasPrefix("1 ping message on their way (alice → service)"))
    #expect(words[1].contains("harmless: periodic upkeep"))
  }

  @Test func theProxysHeldBytesAndUnknownLinesAreCountedNotDropped() {
    let words = InFlightSummary.describe([
      "student-3: the proxy holds 120 bytes", "something else entirely",
    ])
    #expect(words.count == 2)
    #expect(words[0].contains("student-3"))
    #expect(words[1] == "1 other item the world listed")
    #expect(InFlightSummary.describe([]).isEmpty)
  }

  @Test func parsingReadsTheEndsAndTheConnection() {
    let message = InFlightSummary.parse(
      "alice->service c12 join (reliable, held, sent at 1500)")
    #expect(
      message
        == InFlightSummary.Message(
          from: "alice", to: "service", what: "join", channel: "reliable", state: "held"))
    #expect(InFlightSummary.parse("no shape at all") == nil)
    #expect(InFlightSummary.parse("a->b x (") == nil)
  }
}
