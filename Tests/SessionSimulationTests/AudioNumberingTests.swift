import Foundation
import SessionSDK
import SessionTransport
import Testing

@testable import SessionSimulation

/// Audio heard through speaker selection, end to end on the virtual network: six members talk
/// in overlapping spurts, so the three loudest others change all the time, and on clean links
/// no listener reads a lost audio packet (the service numbers audio per listener; before, each
/// time selection left a talker out for a packet or two the listener counted them lost).
@Suite struct AudioNumberingTests {
  static let scenario = """
    {
      "name": "talkers", "seed": 3, "duration": "20s",
      "session": { "name": "Talk" },
      "peers": [
        { "name": "host", "role": "host", "muted": false, "media": { "send": "180p" } },
        { "name": "p-{i}", "count": 5, "muted": false, "join": { "from": "0s", "to": "1s" },
          "media": { "send": "180p" } }
      ],
      "behaviours": [
        { "peers": "*", "talkPerMinute": 40, "talkFor": { "from": "300ms", "to": "2s" } }
      ],
      "expect": { "liveness": "10s" }
    }
    """

  @Test func noListenerReadsSpeakerSelectionAsLoss() throws {
    let scenario = try ScenarioLoader.load(Data(Self.scenario.utf8))
    let world = DeterministicWorld(
      seed: 3, service: ScenarioLoader.serviceConfiguration(for: scenario, seed: 3))
    let runner = ScenarioRunner(scenario: scenario, world: world, options: RunOptions(seed: 3))
    let report = try runner.run()
    #expect(report.passed, "\(report.failures)")
    var heard = 0
    for peer in runner.peers {
      for stream in peer.sdk.mediaFigures.streams where stream.kind == .audio {
        heard += 1
        #expect(stream.packetsReceived > 0)
        #expect(
          stream.packetsLost == 0, "\(peer.name) lost \(stream.packetsLost) of \(stream.publisher)")
      }
    }
    // Every listener heard several talkers.
    #expect(heard >= 2 * runner.peers.count)
  }
}
