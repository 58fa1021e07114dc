/// The round trip to the service, from a ping a second that the service echoes at once.
///
/// The round-trip time is smoothed (a quarter of each new sample); its variation is RFC 3550's
/// jitter estimator over the samples. A ping unanswered after ``timeout`` is lost; the loss is
/// over the last ``window`` pings whose answer is due. The sender learns nothing else about its
/// uplink, so the send side's loss and network quality come from here.
///
/// > Important: A value; owned by the ``MediaSession`` that holds it.
struct PingProbe: Sendable, Hashable {
  /// Between two pings, µs.
  static let interval: Int64 = 1_000_000
  /// How long a ping waits for its answer, µs.
  static let timeout: Int64 = 2_000_000
  /// Pings remembered, for the loss.
  static let window = 10

  private var sentTimes = [Int64](repeating: .min, count: PingProbe.window)
  private var answered = [Bool](repeating: false, count: PingProbe.window)
  private var next = 0
  /// The smoothed round-trip time, µs; `nil` before the first answer.
  private(set) var rtt: Int64?
  /// The round-trip variation, µs.
  private(set) var variation: Int64 = 0
  private var lastSample: Int64?
  /// Pings sent and answered in total.
  private(set) var sent = 0
  private(set) var answers = 0

  /// Records a ping sent at `now`.
  mutating func ping(at now: Int64) {
    sentTimes[next] = now
    answered[next] = false
    next = (next + 1) % Self.window
    sent += 1
  }

  /// Takes an answer.
  ///
  /// - Parameters:
  ///   - sendTime: The time the answer echoes.
  ///   - now: When it arrived.
  /// - Returns: Whether it answered a ping remembered and not answered yet (a stray or doubled
  ///   answer changes nothing).
  mutating func pong(sendTime: Int64, at now: Int64) -> Bool {
    guard sendTime != .min, sendTime <= now,
      let index = sentTimes.firstIndex(of: sendTime), !answered[index]
    else { return false }
    answered[index] = true
    answers += 1
    let sample = now - sendTime
    if let rtt {
      self.rtt = rtt + (sample - rtt) / 4
    } else {
      rtt = sample
    }
    if let lastSample {
      let difference = (sample - lastSample).magnitude
      variation += (Int64(min(difference, 60_000_000)) - variation) / 16
    }
    lastSample = sample
    return true
  }

  /// The pings whose answer is due by `now` among those remembered, and how many went
  /// unanswered.
  func loss(at now: Int64) -> (due: Int, lost: Int) {
    var due = 0
    var lost = 0
    for index in sentTimes.indices where sentTimes[index] != .min {
      guard answered[index] || now &- sentTimes[index] >= Self.timeout else { continue }
      due += 1
      if !answered[index] { lost += 1 }
    }
    return (due, lost)
  }

  /// Pings lost in total: sent, due and unanswered (those still in flight not counted).
  func totalLost(at now: Int64) -> Int {
    let inFlight = sentTimes.indices.filter { index in
      sentTimes[index] != .min && !answered[index] && now &- sentTimes[index] < Self.timeout
    }.count
    return max(0, sent - answers - inFlight)
  }
}
