// The report's smaller drawings: the roster over time with its host, each chosen peer's media,
// and the delay histograms.

extension HTMLReport.RunPage {
  /// What a host strip shows over one stretch: the host's name, or that there was none or more
  /// than one.
  private struct HostKey: Equatable, Sendable {
    /// The name shown.
    var label: String
    /// Whether exactly one host was known.
    var healthy: Bool
  }

  /// What a subscription's strip shows over one stretch.
  private struct LayerKey: Equatable, Sendable {
    /// The lowest layer that arrived, if known.
    var layer: Int?
    /// Whether the service paused it.
    var paused: Bool
    /// Whether it froze.
    var frozen: Bool
  }

  // MARK: Roster

  /// The roster section: each observer's roster size as a line, the service's managers, and a
  /// strip per observer naming the host it saw.
  /// - Parameter html: The page's body so far.
  func writeRosters(into html: inout String) {
    html += "<section id=\"\(anchor)roster\"><h2>Roster</h2>"
    guard !run.rosters.isEmpty else {
      html += "<p class=\"note\">No roster was sampled.</p></section>"
      return
    }
    let colours = run.rosters.indices.map { index in
      index == 0 && run.rosters[index].observer == "service"
        ? "#263238" : HTMLReport.palette[index % HTMLReport.palette.count]
    }
    html += "<p class=\"note\">The roster's size as each observer saw it (the service's first), "
    html += "and below, the host each one saw; red where it saw no host, amber where more than one."
    html += "</p><div class=\"legend\">"
    for (series, colour) in zip(run.rosters, colours) {
      html +=
        "<span><i style=\"background:\(colour)\"></i>\(HTMLReport.escape(series.observer))</span>"
    }
    html += "<span><i style=\"background:#8e24aa\"></i>managers (service)</span></div>"

    var largest = 1
    for series in run.rosters {
      for sample in series.samples { largest = max(largest, sample.size, sample.managers) }
    }
    let chartTop = 26.0
    let scale = HTMLReport.ValueScale(top: chartTop, height: 120, maximum: Double(largest))
    let stripsTop = scale.bottom + 12
    let stripHeight = 13.0
    let bottom = stripsTop + Double(run.rosters.count) * stripHeight
    let height = bottom + 4 + 22

    html += svgOpen(height: height, label: "roster of \(run.scenario) seed \(run.seed)")
    html += axis.grid(from: chartTop, to: bottom)
    html += chartFrame(scale: scale, label: "roster size", maximum: "\(largest)")
    html += contextMarks(from: chartTop, to: bottom)
    if let service = run.rosters.first, service.observer == "service" {
      let points = service.samples.map { HTMLReport.Point(at: $0.at, value: Double($0.managers)) }
      let path = HTMLReport.stepPath(points, axis: axis, interval: interval, scale: scale)
      if !path.isEmpty {
        html +=
          "<path class=\"line\" stroke=\"#8e24aa\" stroke-dasharray=\"4 2\" d=\"\(path)\">"
          + "<title>managers, as the service saw them</title></path>"
      }
    }
    for (index, series) in run.rosters.enumerated().reversed() {
      let points = series.samples.map { HTMLReport.Point(at: $0.at, value: Double($0.size)) }
      let path = HTMLReport.stepPath(points, axis: axis, interval: interval, scale: scale)
      guard !path.isEmpty else { continue }
      let width = index == 0 ? "2.2" : "1.2"
      html +=
        "<path class=\"line\" stroke=\"\(colours[index])\" stroke-width=\"\(width)\" "
        + "d=\"\(path)\"><title>roster size seen by \(HTMLReport.escape(series.observer))"
        + "</title></path>"
    }
    for (index, series) in run.rosters.enumerated() {
      html += hostStrip(series, top: stripsTop + Double(index) * stripHeight)
    }
    html += axis.ticks(at: chartTop, labelsAbove: true)
    html += axis.ticks(at: bottom + 4, labelsAbove: false)
    html += Self.svgClose + "</section>"
  }

  /// One observer's host over time, the host's name inside each stretch that fits it.
  private func hostStrip(_ series: RunTimeline.RosterSeries, top: Double) -> String {
    let observer = HTMLReport.escape(series.observer)
    var svg =
      "<text class=\"small\" x=\"\(HTMLReport.coordinate(axis.left - 4))\" "
      + "y=\"\(HTMLReport.coordinate(top + 9))\" text-anchor=\"end\">host seen by "
      + "\(HTMLReport.escape(HTMLReport.clipped(series.observer, to: 20)))</text>"
    let samples = series.samples.map { sample in
      let key: HostKey
      switch sample.hosts {
      case 0: key = HostKey(label: "no host", healthy: false)
      case 1: key = HostKey(label: sample.host ?? "a host", healthy: true)
      default:
        key = HostKey(label: "\(sample.hosts) hosts (\(sample.host ?? "?"))", healthy: false)
      }
      return (at: sample.at, key: key, value: Double(sample.size))
    }
    let stretches = HTMLReport.stretches(samples, axis: axis, interval: interval) { old, new in
      old.healthy ? new : old
    }
    for stretch in stretches {
      let extent = axis.extent(stretch.from, stretch.to)
      let label = HTMLReport.escape(stretch.key.label)
      let colour =
        stretch.key.healthy
        ? HTMLReport.paletteColour("host\u{0}" + stretch.key.label)
        : (stretch.key.label == "no host" ? "#e53935" : "#ff8f00")
      svg +=
        "<rect x=\"\(HTMLReport.coordinate(extent.x))\" y=\"\(HTMLReport.coordinate(top))\" "
        + "width=\"\(HTMLReport.coordinate(extent.width))\" height=\"11\" fill=\"\(colour)\">"
        + "<title>\(observer) saw \(stretch.key.healthy ? "host " : "")\(label), "
        + "\(HTMLReport.span(stretch.from, stretch.to)); roster size up to "
        + "\(Int(stretch.peak))</title></rect>"
      if extent.width >= Double(stretch.key.label.count) * 5.5 + 6 {
        svg +=
          "<text class=\"inside\" x=\"\(HTMLReport.coordinate(extent.x + 3))\" "
          + "y=\"\(HTMLReport.coordinate(top + 8.5))\">\(label)</text>"
      }
    }
    return svg
  }

  /// A small chart's background, its label and its top value, in the label column.
  private func chartFrame(scale: HTMLReport.ValueScale, label: String, maximum: String) -> String {
    var svg =
      "<rect x=\"\(HTMLReport.coordinate(axis.left))\" y=\"\(HTMLReport.coordinate(scale.top))\" "
      + "width=\"\(HTMLReport.coordinate(axis.width))\" "
      + "height=\"\(HTMLReport.coordinate(scale.height))\" fill=\"#f7f9fa\"/>"
      + "<text class=\"small\" x=\"\(HTMLReport.coordinate(axis.left - 4))\" "
      + "y=\"\(HTMLReport.coordinate(scale.top + 8))\" text-anchor=\"end\">\(maximum)</text>"
      + "<text x=\"6\" y=\"\(HTMLReport.coordinate(scale.top + scale.height / 2 + 4))\">"
      + "\(label)</text>"
    // The zero, where there is room for it below the top value.
    if scale.height >= 24 {
      svg +=
        "<text class=\"small\" x=\"\(HTMLReport.coordinate(axis.left - 4))\" "
        + "y=\"\(HTMLReport.coordinate(scale.bottom))\" text-anchor=\"end\">0</text>"
    }
    return svg
  }

  // MARK: Media

  /// The media section: per chosen peer, what it received over time and a strip per
  /// subscription, then its delay histogram.
  /// - Parameter html: The page's body so far.
  func writeMedia(into html: inout String) {
    guard !run.media.isEmpty else { return }
    html += "<section id=\"\(anchor)media\"><h2>Media</h2>"
    html +=
      "<p class=\"note\">Per peer with media\(run.folded ? " (peers drawn in full only)" : ""): "
    html += "what it received, loss, one-way delay, paused tracks, its network level and "
    html += "freezes; then one strip per subscription, coloured by the layer arriving, its "
    html += "bitrate as a dark line.</p><div class=\"legend\"><span><b>layers</b></span>"
    for layer in [0, 1, 2] {
      html +=
        "<span><i style=\"background:\(HTMLReport.layerColour(layer))\"></i>layer \(layer)</span>"
    }
    html += "<span><i style=\"background:\(HTMLReport.layerColour(nil))\"></i>unknown</span>"
    html += "<span><i style=\"background:#9e9e9e\"></i>paused</span>"
    html += "<span><i style=\"background:#e53935\"></i>frozen</span><br><span><b>network</b></span>"
    for level in [3, 2, 1, 0] {
      html +=
        "<span><i style=\"background:\(HTMLReport.networkColour(level))\"></i>"
        + "\(HTMLReport.networkWord(level))</span>"
    }
    html += "</div>"
    for (index, media) in run.media.enumerated() {
      writeMedia(media, number: index + 1, into: &html)
    }
    html += "</section>"
  }

  /// One peer's media.
  private func writeMedia(_ media: RunTimeline.PeerMedia, number: Int, into html: inout String) {
    let name = HTMLReport.escape(media.peer)
    html += "<div class=\"media-peer\" id=\"\(anchor)media-\(number)\"><h3>\(name)</h3>"
    var kbps = 0.0
    var peakKbps = 0.0
    var peakLoss = 0.0
    var freezes = 0
    var peakPaused = 0
    var peakDelay = 0.0
    for sample in media.samples {
      kbps += sample.receiveKbps
      peakKbps = max(peakKbps, sample.receiveKbps)
      peakLoss = max(peakLoss, sample.lossPercent)
      freezes += sample.freezes
      peakPaused = max(peakPaused, sample.pausedTracks)
      if let delay = sample.delayMs { peakDelay = max(peakDelay, delay) }
    }
    let meanKbps = media.samples.isEmpty ? 0 : kbps / Double(media.samples.count)
    var facts = [
      "received \(HTMLReport.fixed1(meanKbps)) kbit/s on average, "
        + "\(HTMLReport.fixed1(peakKbps)) at most",
      "loss up to \(HTMLReport.fixed1(peakLoss)) %",
      freezes == 1 ? "1 freeze" : "\(HTMLReport.grouped(freezes)) freezes",
      "up to \(peakPaused) paused tracks",
      media.subscriptions.count == 1
        ? "1 subscription" : "\(media.subscriptions.count) subscriptions",
    ]
    if let delay = media.delay {
      facts.append(
        "one-way delay p50 \(HTMLReport.fixed1(delay.p50)) ms, p99 \(HTMLReport.fixed1(delay.p99)) ms, "
          + "max \(HTMLReport.fixed1(delay.max)) ms")
    }
    html += "<p class=\"facts\">\(facts.joined(separator: " \u{00b7} "))</p>"

    let top = 26.0
    let receive = HTMLReport.ValueScale(top: top, height: 46, maximum: max(peakKbps, 1))
    let loss = HTMLReport.ValueScale(top: receive.bottom + 6, height: 22, maximum: max(peakLoss, 1))
    let delay = HTMLReport.ValueScale(top: loss.bottom + 6, height: 28, maximum: max(peakDelay, 1))
    let paused = HTMLReport.ValueScale(
      top: delay.bottom + 6, height: 16, maximum: Double(max(peakPaused, 1)))
    let networkTop = paused.bottom + 6
    let freezesTop = networkTop + 14
    let subscriptionsTop = freezesTop + 16
    let rowHeight = 11.0
    let bottom = subscriptionsTop + Double(media.subscriptions.count) * rowHeight
    let height = bottom + 4 + 22

    html += svgOpen(height: height, label: "media of \(media.peer)")
    html += axis.grid(from: top, to: bottom)
    let charts:
      [(HTMLReport.ValueScale, String, String, String, (RunTimeline.MediaSample) -> Double?)] = [
        (receive, "received kbit/s", HTMLReport.fixed1(peakKbps), "#1e88e5", { $0.receiveKbps }),
        (loss, "loss %", HTMLReport.fixed1(peakLoss), "#c62828", { $0.lossPercent }),
        (delay, "one-way delay ms", HTMLReport.fixed1(peakDelay), "#00838f", { $0.delayMs }),
        (paused, "paused tracks", "\(peakPaused)", "#6d4c41", { Double($0.pausedTracks) }),
      ]
    for (scale, label, maximum, _, _) in charts {
      html += chartFrame(scale: scale, label: label, maximum: maximum)
    }
    html += contextMarks(from: top, to: bottom)
    for (index, chart) in charts.enumerated() {
      let (scale, label, maximum, colour, value) = chart
      let points = media.samples.map { HTMLReport.Point(at: $0.at, value: value($0)) }
      let path = HTMLReport.stepPath(
        points, axis: axis, interval: interval, scale: scale, area: index == 0)
      guard !path.isEmpty else { continue }
      let paint =
        index == 0
        ? "class=\"area\" fill=\"\(colour)\" opacity=\".6\"" : "class=\"line\" stroke=\"\(colour)\""
      html +=
        "<path \(paint) d=\"\(path)\"><title>\(name): \(label), at most \(maximum)</title></path>"
    }
    html += networkStrip(media, name: name, top: networkTop)
    html += freezeTicks(media, name: name, top: freezesTop)
    for (index, subscription) in media.subscriptions.enumerated() {
      html += subscriptionStrip(
        subscription, peer: name, top: subscriptionsTop + Double(index) * rowHeight)
    }
    html += axis.ticks(at: top, labelsAbove: true)
    html += axis.ticks(at: bottom + 4, labelsAbove: false)
    html += Self.svgClose
    if let histogram = media.delay {
      html += HTMLReport.histogram(histogram, title: "\(media.peer): one-way delay", unit: "ms")
    }
    html += "</div>"
  }

  /// The network level the peer's SDK reported, as a strip (the worst level of each bucket).
  private func networkStrip(_ media: RunTimeline.PeerMedia, name: String, top: Double) -> String {
    var svg =
      "<text class=\"small\" x=\"\(HTMLReport.coordinate(axis.left - 4))\" "
      + "y=\"\(HTMLReport.coordinate(top + 8))\" text-anchor=\"end\">network</text>"
    let samples = media.samples.map { (at: $0.at, key: $0.networkLevel, value: 0.0) }
    let stretches = HTMLReport.stretches(samples, axis: axis, interval: interval) { old, new in
      // The worst known level: unknown (0) gives way to any other.
      old == 0 ? new : (new == 0 ? old : min(old, new))
    }
    for stretch in stretches {
      let extent = axis.extent(stretch.from, stretch.to)
      svg +=
        "<rect x=\"\(HTMLReport.coordinate(extent.x))\" y=\"\(HTMLReport.coordinate(top))\" "
        + "width=\"\(HTMLReport.coordinate(extent.width))\" height=\"10\" "
        + "fill=\"\(HTMLReport.networkColour(stretch.key))\"><title>\(name): network "
        + "\(HTMLReport.networkWord(stretch.key)), \(HTMLReport.span(stretch.from, stretch.to))"
        + "</title></rect>"
    }
    return svg
  }

  /// A tick where freezes started (per two pixels, with their count).
  private func freezeTicks(_ media: RunTimeline.PeerMedia, name: String, top: Double) -> String {
    var svg =
      "<text class=\"small\" x=\"\(HTMLReport.coordinate(axis.left - 4))\" "
      + "y=\"\(HTMLReport.coordinate(top + 8))\" text-anchor=\"end\">freezes</text>"
    let samples = media.samples.filter { $0.freezes > 0 }
      .map { (at: $0.at, key: true, value: Double($0.freezes)) }
    let stretches = HTMLReport.stretches(samples, axis: axis, interval: interval) { _, _ in true }
    for stretch in stretches {
      let count = Int(stretch.sum)
      svg +=
        "<rect x=\"\(HTMLReport.coordinate(axis.x(stretch.from)))\" "
        + "y=\"\(HTMLReport.coordinate(top))\" width=\"2\" height=\"10\" fill=\"#e53935\">"
        + "<title>\(name): \(count == 1 ? "1 freeze" : "\(count) freezes") started, "
        + "\(HTMLReport.span(stretch.from, stretch.to))</title></rect>"
    }
    return svg
  }

  /// One subscription: the layer arriving as a strip, its bitrate as a line over it.
  private func subscriptionStrip(
    _ subscription: RunTimeline.Subscription, peer: String, top: Double
  ) -> String {
    let what = HTMLReport.escape("\(subscription.publisher) \(subscription.kind)")
    var svg =
      "<text class=\"small\" x=\"\(HTMLReport.coordinate(axis.left - 4))\" "
      + "y=\"\(HTMLReport.coordinate(top + 8))\" text-anchor=\"end\">"
      + "\(HTMLReport.escape(HTMLReport.clipped("\(subscription.publisher) \(subscription.kind)", to: 30)))"
      + "<title>\(peer) receives \(what)</title></text>"
    let samples = subscription.samples.map { sample in
      (
        at: sample.at,
        key: LayerKey(layer: sample.layer, paused: sample.paused, frozen: sample.frozen),
        value: sample.kbps
      )
    }
    let stretches = HTMLReport.stretches(samples, axis: axis, interval: interval) { old, new in
      let layer: Int? =
        switch (old.layer, new.layer) {
        case let (a?, b?): min(a, b)
        case let (a, b): a ?? b
        }
      return LayerKey(
        layer: layer, paused: old.paused || new.paused, frozen: old.frozen || new.frozen)
    }
    var peak = 0.0
    for stretch in stretches {
      peak = max(peak, stretch.peak)
      let extent = axis.extent(stretch.from, stretch.to)
      let key = stretch.key
      let colour =
        key.frozen ? "#e53935" : (key.paused ? "#9e9e9e" : HTMLReport.layerColour(key.layer))
      var state = key.layer.map { "layer \($0)" } ?? "layer unknown"
      if key.paused { state += ", paused" }
      if key.frozen { state += ", frozen" }
      svg +=
        "<rect x=\"\(HTMLReport.coordinate(extent.x))\" y=\"\(HTMLReport.coordinate(top))\" "
        + "width=\"\(HTMLReport.coordinate(extent.width))\" height=\"9\" fill=\"\(colour)\">"
        + "<title>\(peer) \u{2190} \(what): \(state), \(HTMLReport.fixed1(stretch.mean)) kbit/s on "
        + "average (\(HTMLReport.fixed1(stretch.peak)) at most), "
        + "\(HTMLReport.span(stretch.from, stretch.to))</title></rect>"
    }
    let scale = HTMLReport.ValueScale(top: top + 0.5, height: 8, maximum: max(peak, 1))
    let points = subscription.samples.map { HTMLReport.Point(at: $0.at, value: $0.kbps) }
    let path = HTMLReport.stepPath(points, axis: axis, interval: interval, scale: scale, bucket: 4)
    if !path.isEmpty {
      svg +=
        "<path class=\"line\" stroke=\"#102027\" stroke-width=\".8\" d=\"\(path)\">"
        + "<title>\(what): kbit/s, at most \(HTMLReport.fixed1(peak))</title></path>"
    }
    return svg
  }

  // MARK: Histograms

  /// The delay section: every peer's one-way media delay and the callback latency.
  /// - Parameter html: The page's body so far.
  func writeHistograms(into html: inout String) {
    html += "<section id=\"\(anchor)delays\"><h2>Delays</h2>"
    let histograms: [(RunTimeline.Histogram?, String, String)] = [
      (run.delay, "One-way media delay, every peer", "no media delay was recorded"),
      (
        run.callbackLatency, "Callback latency: the service's event to the peer's callback",
        "no callback latency was recorded"
      ),
    ]
    for (histogram, title, none) in histograms {
      if let histogram {
        html += HTMLReport.histogram(histogram, title: title, unit: "ms")
      } else {
        html += "<div class=\"hist\"><h3>\(title)</h3><p class=\"note\">None: \(none).</p></div>"
      }
    }
    html += "</section>"
  }
}

extension HTMLReport {
  /// A histogram as bars, one per bucket, with its count and quantiles printed and p50 and p99
  /// marked.
  /// - Parameters:
  ///   - histogram: The distribution.
  ///   - title: Its heading, not yet escaped.
  ///   - unit: The unit of the bucket bounds.
  /// - Returns: A block of HTML holding an SVG.
  static func histogram(_ histogram: RunTimeline.Histogram, title: String, unit: String) -> String {
    var html = "<div class=\"hist\"><h3>\(escape(title))</h3>"
    html +=
      "<p class=\"facts\">n \(grouped(histogram.count)) \u{00b7} p50 \(fixed1(histogram.p50)) \(unit) "
      + "\u{00b7} p99 \(fixed1(histogram.p99)) \(unit) \u{00b7} max \(fixed1(histogram.max)) \(unit)</p>"
    let buckets = histogram.buckets
    guard !buckets.isEmpty else { return html + "<p class=\"note\">No bucket.</p></div>" }
    let left = 48.0
    let width = 460.0
    let top = 16.0
    let barsHeight = 96.0
    let total = left + width + 12
    let height = top + barsHeight + 34
    let tallest = max(buckets.map(\.count).max() ?? 1, 1)
    let barWidth = width / Double(buckets.count)
    html +=
      "<svg width=\"\(coordinate(total))\" height=\"\(coordinate(height))\" "
      + "viewBox=\"0 0 \(coordinate(total)) \(coordinate(height))\" role=\"img\" "
      + "aria-label=\"\(escape(title))\">"
    html +=
      "<text class=\"small\" x=\"\(coordinate(left - 4))\" y=\"\(coordinate(top + 8))\" "
      + "text-anchor=\"end\">\(grouped(tallest))</text><text class=\"small\" "
      + "x=\"\(coordinate(left - 4))\" y=\"\(coordinate(top + barsHeight))\" "
      + "text-anchor=\"end\">0</text>"
    let every = max((buckets.count + 7) / 8, 1)
    var lower = 0.0
    for (index, bucket) in buckets.enumerated() {
      let barHeight = barsHeight * Double(bucket.count) / Double(tallest)
      let x = left + Double(index) * barWidth
      let share = histogram.count > 0 ? Double(bucket.count) * 100 / Double(histogram.count) : 0
      let range =
        bucket.upTo.isFinite
        ? (index == 0
          ? "\u{2264} \(fixed1(bucket.upTo))" : "\(fixed1(lower))\u{2013}\(fixed1(bucket.upTo))")
        : "> \(fixed1(lower))"
      html +=
        "<rect x=\"\(coordinate(x + 0.5))\" y=\"\(coordinate(top + barsHeight - barHeight))\" "
        + "width=\"\(coordinate(max(barWidth - 1, 0.5)))\" height=\"\(coordinate(barHeight))\" "
        + "fill=\"#5c6bc0\"><title>\(range) \(unit): \(grouped(bucket.count)) "
        + "(\(fixed1(share)) %)</title></rect>"
      if index % every == 0 || index == buckets.count - 1 {
        let label = bucket.upTo.isFinite ? compact(bucket.upTo) : "more"
        html +=
          "<text class=\"small\" x=\"\(coordinate(x + barWidth))\" "
          + "y=\"\(coordinate(top + barsHeight + 12))\" text-anchor=\"middle\">\(label)</text>"
      }
      if bucket.upTo.isFinite { lower = bucket.upTo }
    }
    html +=
      "<path class=\"axis\" stroke=\"#555\" d=\"M\(coordinate(left)) "
      + "\(coordinate(top + barsHeight))h\(coordinate(width))\"/>"
    html +=
      "<text class=\"small\" x=\"\(coordinate(left + width / 2))\" "
      + "y=\"\(coordinate(top + barsHeight + 28))\" text-anchor=\"middle\">bucket upper bound, "
      + "\(unit)</text>"
    for (name, value) in [("p50", histogram.p50), ("p99", histogram.p99)] {
      let x = coordinate(left + barWidth * bucketPosition(of: value, in: buckets))
      html +=
        "<path stroke=\"#c62828\" stroke-dasharray=\"3 2\" d=\"M\(x) \(coordinate(top - 4))"
        + "V\(coordinate(top + barsHeight))\"/><text class=\"small\" x=\"\(x)\" "
        + "y=\"\(coordinate(top - 6))\" text-anchor=\"middle\">\(name)</text>"
    }
    return html + "</svg></div>"
  }

  /// Where a value falls along the buckets, in bucket widths (2.5 is halfway through the third).
  private static func bucketPosition(of value: Double, in buckets: [RunTimeline.Histogram.Bucket])
    -> Double
  {
    var lower = 0.0
    for (index, bucket) in buckets.enumerated() {
      if value <= bucket.upTo {
        guard bucket.upTo.isFinite, bucket.upTo > lower else { return Double(index) + 0.5 }
        return Double(index) + max(min((value - lower) / (bucket.upTo - lower), 1), 0)
      }
      lower = bucket.upTo
    }
    return Double(buckets.count)
  }

  /// A bound for an axis label: no decimal from 10 up.
  private static func compact(_ value: Double) -> String {
    value >= 10 && value < 1e15 ? grouped(Int(value.rounded())) : coordinate(value)
  }
}
