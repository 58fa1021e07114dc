/// `--peers N`: a scenario's counted groups scaled so that the run has about N peers.
public enum ScenarioScaling {
  /// The scenario with every counted group (count over 1, or a `{i}` name) scaled by the same
  /// factor, single peers kept, each group at least 1.
  ///
  /// - Parameters:
  ///   - scenario: The scenario.
  ///   - peers: About how many peers in all.
  /// - Returns: The scaled scenario; unchanged when it has no counted group.
  public static func scaled(_ scenario: Scenario, toAbout peers: Int) -> Scenario {
    let grouped = scenario.peers.indices.filter { scenario.peers[$0].name.contains("{i}") }
    guard !grouped.isEmpty else { return scenario }
    let singles = scenario.peers.indices.filter { !grouped.contains($0) }.reduce(0) {
      $0 + scenario.peers[$1].count
    }
    let total = grouped.reduce(0) { $0 + scenario.peers[$1].count }
    let wanted = max(grouped.count, peers - singles)
    var result = scenario
    for index in grouped {
      let count = scenario.peers[index].count
      result.peers[index].count = max(
        1, Int((Double(count) * Double(wanted) / Double(total)).rounded()))
    }
    return result
  }
}
