// The pieces every part of the HTML report draws with: escaping, numbers, colours, the time
// axis, step lines and strips of merged samples.

extension HTMLReport {
  // MARK: Text

  /// Text made safe for HTML element content and quoted attribute values: `&`, `<`, `>`, `"`
  /// and `'` as entities; NUL and the other C0 controls but tab, newline and return as U+FFFD.
  /// - Parameter text: Any string from the run.
  /// - Returns: The escaped text.
  static func escape(_ text: String) -> String {
    let needsWork = text.utf8.contains { byte in
      byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27
        || (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D)
    }
    guard needsWork else { return text }
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 {
          escaped += "\u{FFFD}"
        } else {
          escaped.unicodeScalars.append(scalar)
        }
      }
    }
    return escaped
  }

  /// The text cut to `limit` characters, the last of them an ellipsis when cut.
  /// - Parameters:
  ///   - text: The text, not yet escaped.
  ///   - limit: How many characters at most.
  /// - Returns: The text or its start.
  static func clipped(_ text: String, to limit: Int) -> String {
    guard text.count > limit else { return text }
    return String(text.prefix(max(limit - 1, 1))) + "\u{2026}"
  }

  // MARK: Numbers

  /// A number as `%.1f` writes it (one decimal, halves away from zero), `-` when not finite.
  /// - Parameter value: The number.
  /// - Returns: Its text.
  static func fixed1(_ value: Double) -> String {
    tenths(value, keepZero: true)
  }

  /// A coordinate: one decimal at most, and none when it is zero (`12`, `12.5`).
  /// - Parameter value: The coordinate.
  /// - Returns: Its text.
  static func coordinate(_ value: Double) -> String {
    tenths(value, keepZero: false)
  }

  /// `value` rounded to tenths, written without `Foundation` (the report writes many).
  private static func tenths(_ value: Double, keepZero: Bool) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return value.isNaN ? "-" : "\(value)" }
    let scaled = Int64((value * 10).rounded())
    let magnitude = scaled.magnitude
    let sign = scaled < 0 ? "-" : ""
    let fraction = magnitude % 10
    if fraction == 0 && !keepZero { return "\(sign)\(magnitude / 10)" }
    return "\(sign)\(magnitude / 10).\(fraction)"
  }

  /// A count with thousands separated by commas (`12,345`).
  /// - Parameter value: The count.
  /// - Returns: Its text.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
      text.append(digit)
    }
    return (value < 0 ? "-" : "") + text
  }

  /// Milliseconds as seconds with one decimal (`12.3 s`).
  /// - Parameter milliseconds: Milliseconds since the run started.
  /// - Returns: Its text.
  static func seconds(_ milliseconds: Int64) -> String {
    fixed1(Double(milliseconds) / 1000) + " s"
  }

  /// A stretch of time in seconds (`12.3–45.6 s`).
  /// - Parameters:
  ///   - from: Its start, milliseconds.
  ///   - to: Its end, milliseconds.
  /// - Returns: Its text.
  static func span(_ from: Int64, _ to: Int64) -> String {
    fixed1(Double(from) / 1000) + "\u{2013}" + fixed1(Double(to) / 1000) + " s"
  }

  // MARK: Colours

  /// Colours for values the report has no fixed colour for, picked by a stable hash.
  static let palette = [
    "#1e88e5", "#43a047", "#fb8c00", "#8e24aa", "#00897b", "#e53935", "#3949ab", "#c0ca33",
    "#6d4c41", "#d81b60", "#00acc1", "#546e7a",
  ]

  /// FNV-1a over the text's UTF-8: a hash that is the same in every process (Swift's
  /// `hashValue` is not).
  /// - Parameter text: The text.
  /// - Returns: Its hash.
  static func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    return hash
  }

  /// A palette colour for a key, the same for the same key.
  /// - Parameter key: What the colour stands for.
  /// - Returns: A CSS colour.
  static func paletteColour(_ key: String) -> String {
    palette[Int(stableHash(key) % UInt64(palette.count))]
  }

  /// The colour of one value of one lane kind.
  /// - Parameters:
  ///   - kind: The lane's kind (one of ``RunTimeline/Lane/kinds``).
  ///   - value: The segment's value.
  /// - Returns: A CSS colour.
  static func laneColour(kind: String, value: String) -> String {
    switch (kind, value) {
    case (_, "dead"): "#212121"
    case (_, "paused"): "#9e9e9e"
    case ("session", "in"): "#7cb342"
    case (_, "host"): "#d81b60"
    case (_, "manager"): "#8e24aa"
    case ("video", "on"): "#1e88e5"
    case ("audio", "on"), ("audio", "unmuted"): "#66bb6a"
    case ("audio", "talking"): "#fb8c00"
    case (_, "muted"): "#b0bec5"
    case (_, "sharing"): "#00897b"
    case (_, "annotating"): "#f4511e"
    case (_, "spotlighted"): "#fbc02d"
    default: paletteColour(kind + "\u{0}" + value)
    }
  }

  /// The fault kinds with a colour of their own, in legend order.
  static let faultKinds = [
    "partition", "hold", "loss", "cap", "delay", "kill", "pause", "serviceRestart", "clockSkew",
  ]

  /// The colour of a fault kind's band.
  /// - Parameter kind: The fault's kind.
  /// - Returns: A CSS colour.
  static func faultColour(_ kind: String) -> String {
    switch kind {
    case "partition": "#ef6c00"
    case "hold": "#6a1b9a"
    case "loss": "#c62828"
    case "cap": "#1565c0"
    case "delay": "#00838f"
    case "kill": "#212121"
    case "pause": "#757575"
    case "serviceRestart": "#795548"
    case "clockSkew": "#9e9d24"
    default: "#607d8b"
    }
  }

  /// The colour of a simulcast layer in a subscription strip.
  /// - Parameter layer: The layer (0 lowest), `nil` when unknown.
  /// - Returns: A CSS colour.
  static func layerColour(_ layer: Int?) -> String {
    switch layer {
    case nil: "#cfd8dc"
    case 0: "#90caf9"
    case 1: "#42a5f5"
    case 2: "#1565c0"
    default: "#0d47a1"
    }
  }

  /// The colour of a network level (0 unknown, 1 bad, 2 normal, 3 good).
  /// - Parameter level: The level.
  /// - Returns: A CSS colour.
  static func networkColour(_ level: Int) -> String {
    switch level {
    case 1: "#e53935"
    case 2: "#fdd835"
    case 3: "#43a047"
    default: "#cfd8dc"
    }
  }

  /// A network level in words.
  /// - Parameter level: The level.
  /// - Returns: `unknown`, `bad`, `normal` or `good`.
  static func networkWord(_ level: Int) -> String {
    switch level {
    case 1: "bad"
    case 2: "normal"
    case 3: "good"
    default: "unknown"
    }
  }

  // MARK: Geometry

  /// The horizontal map of every time-based drawing: a fixed column of labels on the left,
  /// then the run's time over a fixed width.
  ///
  /// > Important: A value; `Sendable`.
  struct TimeAxis: Sendable {
    /// The end of the drawn time, milliseconds (at least 1).
    var end: Int64
    /// The width of the label column, pixels.
    var left: Double = 230
    /// The width the run's time takes, pixels.
    var width: Double = 1040

    /// Where the time ends, pixels.
    var right: Double { left + width }
    /// The whole drawing's width, pixels.
    var total: Double { right + 24 }

    /// The horizontal position of a time, clamped into the run.
    /// - Parameter milliseconds: Milliseconds since the run started.
    /// - Returns: Pixels from the drawing's left edge.
    func x(_ milliseconds: Int64) -> Double {
      left + width * Double(min(max(milliseconds, 0), end)) / Double(end)
    }

    /// A stretch's position and width, at least half a pixel wide.
    /// - Parameters:
    ///   - from: Its start, milliseconds.
    ///   - to: Its end, milliseconds.
    /// - Returns: Its left edge and width, pixels.
    func extent(_ from: Int64, _ to: Int64) -> (x: Double, width: Double) {
      let start = x(from)
      return (start, max(x(to) - start, 0.5))
    }

    /// The tick spacing: the smallest round step that gives at most 12 ticks.
    var step: Int64 {
      let steps: [Int64] = [
        100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 20_000, 30_000, 60_000, 120_000,
        300_000, 600_000, 1_200_000, 1_800_000, 3_600_000,
      ]
      return steps.first { end / $0 <= 12 } ?? (end / 12 / 3_600_000 + 1) * 3_600_000
    }

    /// The attributes the page's script reads to show the time under the pointer.
    var dataAttributes: String {
      "data-left=\"\(coordinate(left))\" data-width=\"\(coordinate(width))\" data-end=\"\(end)\""
    }

    /// Tick marks and their labels in seconds, along a line.
    /// - Parameters:
    ///   - y: The line's position, pixels.
    ///   - above: Whether the labels go above the line (a top axis) or below it.
    /// - Returns: SVG elements.
    func ticks(at y: Double, labelsAbove above: Bool) -> String {
      var svg =
        "<g class=\"axis\"><path d=\"M\(coordinate(left)) \(coordinate(y))H\(coordinate(right))"
      var tick: Int64 = 0
      while tick <= end {
        svg += "M\(coordinate(x(tick))) \(coordinate(y))v\(above ? -4 : 4)"
        tick += step
      }
      svg += "\"/>"
      tick = 0
      let labelY = above ? y - 6 : y + 14
      while tick <= end {
        let text =
          step % 1000 == 0 ? "\(tick / 1000) s" : fixed1(Double(tick) / 1000) + " s"
        svg +=
          "<text x=\"\(coordinate(x(tick)))\" y=\"\(coordinate(labelY))\" "
          + "text-anchor=\"middle\">\(text)</text>"
        tick += step
      }
      return svg + "</g>"
    }

    /// Faint vertical lines at every tick, behind a drawing's rows.
    /// - Parameters:
    ///   - top: Where they start, pixels.
    ///   - bottom: Where they end, pixels.
    /// - Returns: One SVG path.
    func grid(from top: Double, to bottom: Double) -> String {
      var path = ""
      var tick: Int64 = 0
      while tick <= end {
        path += "M\(coordinate(x(tick))) \(coordinate(top))V\(coordinate(bottom))"
        tick += step
      }
      return "<path class=\"grid\" d=\"\(path)\"/>"
    }
  }

  /// The vertical map of one small chart: values from 0 to `maximum` over `height` pixels.
  ///
  /// > Important: A value; `Sendable`.
  struct ValueScale: Sendable {
    /// The chart's top, pixels.
    var top: Double
    /// The chart's height, pixels.
    var height: Double
    /// The value drawn at the top (above 0).
    var maximum: Double

    /// The chart's bottom, pixels.
    var bottom: Double { top + height }

    /// A value's position, clamped into the chart, to half a pixel.
    /// - Parameter value: The value.
    /// - Returns: Pixels from the drawing's top.
    func y(_ value: Double) -> Double {
      let clamped = min(max(value, 0), maximum)
      return ((bottom - height * clamped / maximum) * 2).rounded() / 2
    }
  }

  /// One sampled value for ``stepPath(_:axis:interval:scale:bucket:area:)``.
  ///
  /// > Important: A value; `Sendable`.
  struct Point: Sendable {
    /// When, milliseconds.
    var at: Int64
    /// The value; `nil` for a gap.
    var value: Double?
  }

  /// The `d` of a step line (or the area under it) through sampled values: each sample holds
  /// until the next; samples within one `bucket` of pixels are averaged, so the path has at
  /// most one step per bucket whatever the sample count; a missing value or a gap of more than
  /// one and a half intervals starts a new subpath.
  /// - Parameters:
  ///   - points: The samples, in time order.
  ///   - axis: The time axis.
  ///   - interval: The sampling period, milliseconds.
  ///   - scale: The chart's vertical map.
  ///   - bucket: The width of a bucket, pixels.
  ///   - area: Whether to close each subpath down to the chart's bottom, for a fill.
  /// - Returns: The path data, empty when there is nothing to draw.
  static func stepPath(
    _ points: [Point], axis: TimeAxis, interval: Int64, scale: ValueScale, bucket: Double = 2,
    area: Bool = false
  ) -> String {
    var path = ""
    var open = false
    var lastY = 0.0
    var lastAt = Int64.min
    var bucketIndex = Int.min
    var bucketX = 0.0
    var sum = 0.0
    var count = 0
    let base = coordinate(scale.bottom)

    func flush() {
      guard count > 0 else { return }
      let y = scale.y(sum / Double(count))
      if !open {
        path +=
          area
          ? "M\(coordinate(bucketX)) \(base)V\(coordinate(y))"
          : "M\(coordinate(bucketX)) \(coordinate(y))"
        open = true
      } else if y != lastY {
        path += "H\(coordinate(bucketX))V\(coordinate(y))"
      }
      lastY = y
      sum = 0
      count = 0
    }
    func close() {
      flush()
      guard open else { return }
      path += "H\(coordinate(axis.x(lastAt + interval)))"
      if area { path += "V\(base)Z" }
      open = false
      bucketIndex = Int.min
    }

    for point in points {
      guard let value = point.value, value.isFinite else {
        close()
        continue
      }
      if lastAt != Int64.min && point.at - lastAt > interval * 3 / 2 { close() }
      let index = Int((axis.x(point.at) - axis.left) / bucket)
      if index != bucketIndex {
        flush()
        bucketIndex = index
        bucketX = axis.x(point.at)
      }
      sum += value
      count += 1
      lastAt = point.at
    }
    close()
    return path
  }

  /// A stretch of equal samples for a strip: a key (what colour) over time, with the sum and
  /// peak of a value the samples carry (a bitrate).
  ///
  /// > Important: A value; `Sendable`.
  struct Stretch<Key: Equatable & Sendable>: Sendable {
    /// What the stretch shows.
    var key: Key
    /// Where it starts, milliseconds.
    var from: Int64
    /// Where it ends, milliseconds.
    var to: Int64
    /// How many samples it merged.
    var count: Int
    /// The sum of their values.
    var sum: Double
    /// The largest of their values.
    var peak: Double

    /// The mean of the merged values.
    var mean: Double { count > 0 ? sum / Double(count) : 0 }
  }

  /// Merges samples into stretches: samples in one bucket of pixels combine into one key
  /// (`combine`), then neighbours with equal keys and no gap merge; each sample holds for one
  /// interval. So a strip has at most one stretch per bucket however its key flaps.
  /// - Parameters:
  ///   - samples: `(at, key, value)` in time order.
  ///   - axis: The time axis.
  ///   - interval: The sampling period, milliseconds.
  ///   - bucket: The width of a bucket, pixels.
  ///   - combine: The key of a bucket from its key so far and the next sample's.
  /// - Returns: The stretches, in time order.
  static func stretches<Key: Equatable & Sendable>(
    _ samples: [(at: Int64, key: Key, value: Double)], axis: TimeAxis, interval: Int64,
    bucket: Double = 2, combine: (Key, Key) -> Key
  ) -> [Stretch<Key>] {
    var buckets: [Stretch<Key>] = []
    var bucketIndex = Int.min
    for sample in samples {
      let index = Int((axis.x(sample.at) - axis.left) / bucket)
      let end = sample.at + interval
      if index == bucketIndex, var last = buckets.last, sample.at - last.to <= interval / 2 {
        last.key = combine(last.key, sample.key)
        last.to = end
        last.count += 1
        last.sum += sample.value
        last.peak = max(last.peak, sample.value)
        buckets[buckets.count - 1] = last
      } else {
        buckets.append(
          Stretch(
            key: sample.key, from: sample.at, to: end, count: 1, sum: sample.value,
            peak: sample.value))
        bucketIndex = index
      }
    }
    var merged: [Stretch<Key>] = []
    for stretch in buckets {
      if var last = merged.last, last.key == stretch.key, stretch.from - last.to <= interval / 2 {
        last.to = stretch.to
        last.count += stretch.count
        last.sum += stretch.sum
        last.peak = max(last.peak, stretch.peak)
        merged[merged.count - 1] = last
      } else {
        merged.append(stretch)
      }
    }
    return merged
  }

  /// A lane's segments with touching neighbours of equal value merged into one.
  /// - Parameter segments: The segments, in time order.
  /// - Returns: The merged segments.
  static func merged(_ segments: [RunTimeline.Segment]) -> [RunTimeline.Segment] {
    var result: [RunTimeline.Segment] = []
    result.reserveCapacity(segments.count)
    for segment in segments {
      if var last = result.last, last.value == segment.value, segment.from <= last.to {
        last.to = max(last.to, segment.to)
        result[result.count - 1] = last
      } else {
        result.append(segment)
      }
    }
    return result
  }
}
