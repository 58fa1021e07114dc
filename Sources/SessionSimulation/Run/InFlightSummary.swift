import Foundation

/// What was still in flight at a run's end, in words a person can act on: grouped by kind,
/// where it was going, and whether it matters.
///
/// The world lists each message (`service->student-1 datagram (647 bytes) (datagram,
/// inFlight, sent at 81981403)`); a run that ends mid-stream has hundreds, nearly all media
/// datagrams sent in its last milliseconds. This turns them into a few lines.
///
/// > Important: Stateless; its functions are pure.
package enum InFlightSummary {
  /// One message as the world described it.
  struct Message: Equatable {
    var from: String
    var to: String
    var what: String
    var channel: String
    var state: String
  }

  /// Reads one of the world's lines; `nil` for a line of another shape.
  static func parse(_ line: String) -> Message? {
    guard let open = line.range(of: " (", options: .backwards), line.hasSuffix(")") else {
      return nil
    }
    let tail = line[open.upperBound..<line.index(before: line.endIndex)]
      .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard tail.count >= 2 else { return nil }
    let head = line[..<open.lowerBound]
    guard let space = head.firstIndex(of: " ") else { return nil }
    let ends = head[..<space].components(separatedBy: "->")
    guard ends.count == 2 else { return nil }
    var what = head[head.index(after: space)...]
    // A connection id (`c12`) comes first on the reliable channel.
    if what.first == "c", let gap = what.firstIndex(of: " "),
      what[what.index(after: what.startIndex)..<gap].allSatisfy(\.isNumber)
    {
      what = what[what.index(after: gap)...]
    }
    return Message(
      from: ends[0], to: ends[1], what: String(what), channel: tail[0], state: tail[1])
  }

  /// The lines, in words: one per kind of message and where it was, with a count, whom it
  /// was going to, and whether it matters; empty when nothing was in flight.
  ///
  /// - Parameter lines: The world's lines (``RunReport/inFlight``).
  /// - Returns: A few sentences.
  package static func describe(_ lines: [String]) -> [String] {
    struct Key: Hashable {
      var kind: String
      var state: String
    }
    var groups: [Key: [Message]] = [:]
    var order: [Key] = []
    var unreadable = 0
    var proxyHolds: [String] = []
    for line in lines {
      if let mark = line.range(of: ": the proxy holds ") {
        proxyHolds.append(String(line[..<mark.lowerBound]))
        continue
      }
      guard let message = parse(line) else {
        unreadable += 1
        continue
      }
      let kind: String
      if message.channel == "datagram" {
        kind = "media datagram"
      } else {
        kind = message.what.split(separator: " ").first.map(String.init) ?? "message"
      }
      let key = Key(kind: kind, state: message.state)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(message)
    }
    var sentences: [String] = []
    for key in order {
      let messages = groups[key] ?? []
      let count = messages.count
      let plural = count == 1 ? "" : "s"
      let place: String
      switch key.state {
      case "held": place = "held behind a partition or hold"
      case "waiting": place = "waiting for a paused peer to resume"
      default: place = "on their way"
      }
      let noun = key.kind == "media datagram" ? "media datagram" : "\(key.kind) message"
      var sentence = "\(count) \(noun)\(plural) \(place) (\(Self.directions(messages)))"
      sentence += ": " + Self.verdict(kind: key.kind, state: key.state)
      sentences.append(sentence)
    }
    if !proxyHolds.isEmpty {
      let named =
        proxyHolds.count <= 3
        ? proxyHolds.joined(separator: ", ") : "\(proxyHolds.count) peers"
      sentences.append(
        "the fault proxy still held bytes for \(named): worth a look: the run released every "
          + "hold at the heal")
    }
    if unreadable > 0 {
      sentences.append("\(unreadable) other item\(unreadable == 1 ? "" : "s") the world listed")
    }
    return sentences
  }

  /// Who sent to whom, briefly: `service → 30 peers`, `student-3 → service`.
  private static func directions(_ messages: [Message]) -> String {
    var byDirection: [String: Set<String>] = [:]
    var order: [String] = []
    for message in messages {
      let (key, other) =
        message.from == "service" ? ("service → ", message.to) : ("→ service from ", message.from)
      if byDirection[key] == nil { order.append(key) }
      byDirection[key, default: []].insert(other)
    }
    return order.map { key in
      let peers = byDirection[key] ?? []
      let named =
        peers.count <= 3 ? peers.sorted().joined(separator: ", ") : "\(peers.count) peers"
      return key == "service → " ? "service → \(named)" : "\(named) → service"
    }.joined(separator: "; ")
  }

  /// Whether a kind of message left over matters.
  private static func verdict(kind: String, state: String) -> String {
    if kind == "media datagram" {
      return "harmless: media is sent all the time and may be lost; the run stopped mid-stream"
    }
    switch state {
    case "held":
      return "worth a look: the run healed every fault, so nothing should stay held; the "
        + "checks ran on what had arrived"
    case "waiting":
      return "worth a look: every peer was resumed at the heal"
    default:
      switch kind {
      case "ping", "pong", "heartbeat", "feedback", "report":
        return "harmless: periodic upkeep, sent again in a moment"
      case "close", "goodbye":
        return "harmless: a connection closing"
      default:
        return "harmless unless a check failed: the checks ran on what had arrived, after "
          + "the run waited for the network to settle"
      }
    }
  }
}
