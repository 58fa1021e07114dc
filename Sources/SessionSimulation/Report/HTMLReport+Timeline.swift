// The report's main drawing: the run's time with the fault bands, the heal, the failure
// markers, a lane of counts per folded group and a swimlane per peer drawn in full.

extension HTMLReport.RunPage {
  /// The series of a folded group's lane: name, colour, and how to read it from a sample.
  private static let groupSeries:
    [(name: String, colour: String, value: @Sendable (RunTimeline.GroupSample) -> Int)] = [
      ("in session", "#9ccc65", { $0.inSession }),
      ("video on", "#1e88e5", { $0.video }),
      ("audio unmuted", "#fb8c00", { $0.audio }),
      ("sharing", "#00897b", { $0.sharing }),
      ("in a subsession", "#8e24aa", { $0.inSubSession }),
      ("down (paused or dead)", "#212121", { $0.down }),
    ]

  /// Heights of the timeline's rows, pixels.
  private enum Row {
    static let axis = 22.0
    static let marks = 16.0
    static let faultLabel = 13.0
    static let group = 46.0
    static let groupChart = 36.0
    static let peerHeader = 16.0
    static let lane = 12.0
    static let laneBar = 10.0
    static let callbacks = 10.0
    static let peerGap = 6.0
  }

  /// Rows for labels so that they do not overlap: each goes in the first row free where it
  /// starts, a new row while there are fewer than `limit`, else the row that frees first.
  /// - Parameters:
  ///   - spans: Each label's left and right edge, pixels, in drawing order.
  ///   - limit: How many rows at most.
  /// - Returns: Each label's row, and how many rows there are.
  private static func packed(_ spans: [(start: Double, end: Double)], limit: Int) -> (
    rows: [Int], count: Int
  ) {
    var rowEnds: [Double] = []
    var rows: [Int] = []
    for span in spans {
      let row: Int
      if let free = rowEnds.firstIndex(where: { $0 <= span.start }) {
        row = free
      } else if rowEnds.count < limit {
        row = rowEnds.count
        rowEnds.append(0)
      } else {
        row = rowEnds.indices.min { rowEnds[$0] < rowEnds[$1] } ?? 0
      }
      rowEnds[row] = max(rowEnds[row], span.end)
      rows.append(row)
    }
    return (rows, rowEnds.count)
  }

  /// A label's estimated width in pixels, at about `perCharacter` pixels a character.
  private static func width(of text: String, perCharacter: Double) -> Double {
    Double(text.count) * perCharacter + 8
  }

  /// Where a failure's label goes: right of its line, or left of it near the right edge.
  private func failureLabelSpan(_ failure: RunTimeline.FailureMark, number: Int) -> (
    start: Double, end: Double, anchorEnd: Bool
  ) {
    let x = axis.x(failure.at)
    let width = Self.width(of: failureLabel(failure, number: number), perCharacter: 6.6)
    let anchorEnd = x + width > axis.total
    return anchorEnd ? (x - width, x, true) : (x, x + width, false)
  }

  /// A failure's visible label: its number and check.
  private func failureLabel(_ failure: RunTimeline.FailureMark, number: Int) -> String {
    "\u{2717}\(number) " + HTMLReport.clipped(failure.check, to: 20)
  }

  /// The section: the note on folding, the legend, the drawing.
  /// - Parameter html: The page's body so far.
  func writeTimeline(into html: inout String) {
    html += "<section id=\"\(anchor)timeline\"><h2>Timeline</h2>"
    writeFoldingNote(into: &html)
    writeLegend(into: &html)

    // Below the top axis: a row for the heal's label, rows for the failures' labels, rows for
    // the faults' labels, then the lanes.
    let marksTop = Row.axis
    let failureSpans = run.failures.enumerated().map { failureLabelSpan($1, number: $0 + 1) }
    let failureRows = Self.packed(failureSpans.map { ($0.start, $0.end) }, limit: 4)
    let failuresTop = marksTop + Row.marks
    let labelsTop = failuresTop + Double(failureRows.count) * Row.marks
    let labels = Self.packed(
      run.faults.map { fault in
        let start = axis.x(fault.from)
        return (
          start, start + Self.width(of: HTMLReport.clipped(fault.label, to: 48), perCharacter: 5.6)
        )
      }, limit: 8)
    let lanesTop = labelsTop + Double(labels.count) * Row.faultLabel + 4
    var y = lanesTop
    var body = ""
    if run.folded {
      var drawnByGroup: [String: Int] = [:]
      for peer in run.peers { drawnByGroup[peer.group, default: 0] += 1 }
      for group in run.groups {
        body += groupLane(group, drawn: drawnByGroup[group.name] ?? 0, top: y)
        y += Row.group
      }
    }
    for (index, peer) in run.peers.enumerated() {
      let drawn = peerLane(peer, index: index, top: y)
      body += drawn.svg
      y += drawn.height
    }
    let lanesBottom = max(y, lanesTop + 8)
    let height = lanesBottom + 4 + Row.axis

    html += svgOpen(height: height, label: "timeline of \(run.scenario) seed \(run.seed)")
    html += axis.grid(from: marksTop, to: lanesBottom)
    html += body
    for (fault, row) in zip(run.faults, labels.rows) {
      html += faultBand(
        fault, labelY: labelsTop + Double(row) * Row.faultLabel, bottom: lanesBottom)
    }
    html += healMark(top: marksTop, bottom: lanesBottom)
    for (index, failure) in run.failures.enumerated() {
      html += failureMark(
        failure, number: index + 1, top: marksTop,
        labelY: failuresTop + Double(failureRows.rows[index]) * Row.marks + 12,
        anchorEnd: failureSpans[index].anchorEnd, bottom: lanesBottom)
    }
    html += axis.ticks(at: marksTop, labelsAbove: true)
    html += axis.ticks(at: lanesBottom + 4, labelsAbove: false)
    html += Self.svgClose + "</section>"
  }

  /// Says how many peers are folded into counts and which are drawn in full, and why.
  private func writeFoldingNote(into html: inout String) {
    let drawn = run.peers.count
    guard run.folded else {
      html +=
        "<p class=\"note\">All \(HTMLReport.grouped(run.peerCount)) peers are drawn in full, "
        + "one swimlane each.</p>"
      return
    }
    let folded = max(run.peerCount - drawn, 0)
    html +=
      "<p class=\"note\">\(HTMLReport.grouped(run.peerCount)) peers: "
      + "\(HTMLReport.grouped(folded)) folded into the counts of their group "
      + "(\(run.groups.count == 1 ? "1 group" : "\(run.groups.count) groups"), one lane each), "
      + "\(HTMLReport.grouped(drawn)) drawn in full"
    if drawn == 0 {
      html += ".</p>"
      return
    }
    html += ": "
    html += run.peers.map { peer in
      let why = peer.expandedBecause.map { " (\(HTMLReport.escape($0)))" } ?? ""
      return HTMLReport.escape(peer.name) + why
    }.joined(separator: ", ")
    html += ".</p>"
  }

  /// The colours of the lanes' values, the group series, the fault kinds and the marks.
  private func writeLegend(into html: inout String) {
    var kinds = RunTimeline.Lane.kinds
    var values: [[String]] = Array(repeating: [], count: kinds.count)
    var seen = Set<String>()
    for peer in run.peers {
      for lane in peer.lanes {
        var index = kinds.firstIndex(of: lane.kind)
        if index == nil {
          kinds.append(lane.kind)
          values.append([])
          index = kinds.count - 1
        }
        guard let index else { continue }
        for segment in lane.segments where values[index].count < 12 {
          if seen.insert(lane.kind + "\u{0}" + segment.value).inserted {
            values[index].append(segment.value)
          }
        }
      }
    }
    html += "<div class=\"legend\">"
    for (kind, list) in zip(kinds, values) where !list.isEmpty {
      html += "<span><b>\(HTMLReport.escape(kind))</b></span>"
      for value in list {
        let colour = HTMLReport.laneColour(kind: kind, value: value)
        html += "<span><i style=\"background:\(colour)\"></i>\(HTMLReport.escape(value))</span>"
      }
    }
    if run.folded {
      html += "<br><span><b>groups</b></span>"
      for series in Self.groupSeries {
        html += "<span><i style=\"background:\(series.colour)\"></i>\(series.name)</span>"
      }
    }
    var faultKinds: [String] = []
    for fault in run.faults where !faultKinds.contains(fault.kind) { faultKinds.append(fault.kind) }
    if !faultKinds.isEmpty {
      html += "<br><span><b>faults</b></span>"
      for kind in faultKinds {
        html +=
          "<span><i style=\"background:\(HTMLReport.faultColour(kind));opacity:.5\"></i>"
          + "\(HTMLReport.escape(kind))</span>"
      }
    }
    html += "<br><span><b>marks</b></span>"
    html += "<span><i style=\"background:#2e7d32\"></i>heal (end of the scripted part)</span>"
    if !run.failures.isEmpty {
      html += "<span><i style=\"background:#c62828\"></i>failure</span>"
    }
    html += "<span><i style=\"background:#37474f;width:2px\"></i>callback</span>"
    html += "</div>"
  }

  /// One folded group's lane: its counts over time as lines over the area of those in session.
  private func groupLane(_ group: RunTimeline.Group, drawn: Int, top: Double) -> String {
    let name = HTMLReport.escape(group.name)
    let peers = group.count == 1 ? "1 peer" : "\(HTMLReport.grouped(group.count)) peers"
    var svg = "<g class=\"group-lane\" data-group=\"\(name)\">"
    let scale = HTMLReport.ValueScale(
      top: top + 2, height: Row.groupChart, maximum: Double(max(group.count, 1)))
    var peaks = Array(repeating: 0, count: Self.groupSeries.count)
    for sample in group.samples {
      for (index, series) in Self.groupSeries.enumerated() {
        peaks[index] = max(peaks[index], series.value(sample))
      }
    }
    let summary = zip(Self.groupSeries, peaks).map { "\($0.name) at most \($1)" }
      .joined(separator: ", ")
    svg +=
      "<rect x=\"\(HTMLReport.coordinate(axis.left))\" y=\"\(HTMLReport.coordinate(scale.top))\" "
      + "width=\"\(HTMLReport.coordinate(axis.width))\" "
      + "height=\"\(HTMLReport.coordinate(scale.height))\" fill=\"#f7f9fa\">"
      + "<title>group \(name): \(peers); \(summary)</title></rect>"
    svg +=
      "<text class=\"peer\" x=\"6\" y=\"\(HTMLReport.coordinate(top + 14))\">"
      + "\(HTMLReport.escape(HTMLReport.clipped(group.name, to: 24)))"
      + "<title>group \(name)</title></text>"
    let inFull = drawn == 0 ? "folded" : "\(drawn) drawn in full"
    svg +=
      "<text class=\"small\" x=\"6\" y=\"\(HTMLReport.coordinate(top + 27))\">"
      + "\(peers) \u{00b7} \(inFull)</text>"
    svg +=
      "<text class=\"small\" x=\"\(HTMLReport.coordinate(axis.left - 4))\" "
      + "y=\"\(HTMLReport.coordinate(scale.top + 8))\" text-anchor=\"end\">\(group.count)</text>"
      + "<text class=\"small\" x=\"\(HTMLReport.coordinate(axis.left - 4))\" "
      + "y=\"\(HTMLReport.coordinate(scale.bottom))\" text-anchor=\"end\">0</text>"
    for (index, series) in Self.groupSeries.enumerated() where peaks[index] > 0 || index == 0 {
      let points = group.samples.map { sample in
        HTMLReport.Point(at: sample.at, value: Double(series.value(sample)))
      }
      let area = index == 0
      let path = HTMLReport.stepPath(
        points, axis: axis, interval: interval, scale: scale, area: area)
      guard !path.isEmpty else { continue }
      let paint =
        area
        ? "class=\"area\" fill=\"\(series.colour)\" opacity=\".55\""
        : "class=\"line\" stroke=\"\(series.colour)\""
      svg += "<path \(paint) d=\"\(path)\"><title>\(name): \(series.name)</title></path>"
    }
    return svg + "</g>"
  }

  /// One peer's swimlane: a header, a row per lane kind present, a row of callback ticks.
  private func peerLane(
    _ peer: RunTimeline.Peer, index: Int, top: Double
  ) -> (svg: String, height: Double) {
    let name = HTMLReport.escape(peer.name)
    let kinds = RunTimeline.Lane.kinds
    let lanes = peer.lanes.filter { !$0.segments.isEmpty }.enumerated().sorted { left, right in
      let leftRank = kinds.firstIndex(of: left.element.kind) ?? kinds.count
      let rightRank = kinds.firstIndex(of: right.element.kind) ?? kinds.count
      return (leftRank, left.offset) < (rightRank, right.offset)
    }.map(\.element)
    let height =
      Row.peerHeader + Double(lanes.count) * Row.lane
      + (peer.callbacks.isEmpty ? 0 : Row.callbacks) + Row.peerGap

    var svg = "<g class=\"lane\" data-peer=\"\(name)\">"
    if index % 2 == 1 {
      svg +=
        "<rect x=\"0\" y=\"\(HTMLReport.coordinate(top - Row.peerGap / 2))\" "
        + "width=\"\(HTMLReport.coordinate(axis.total))\" "
        + "height=\"\(HTMLReport.coordinate(height))\" fill=\"#f6f8f9\"/>"
    }
    var about = "\(name), group \(HTMLReport.escape(peer.group))"
    if let why = peer.expandedBecause { about += ", drawn in full: \(HTMLReport.escape(why))" }
    let tag = [peer.group, peer.expandedBecause].compactMap { $0 }.filter { !$0.isEmpty }
      .joined(separator: " \u{00b7} ")
    let shownName = HTMLReport.clipped(peer.name, to: 24)
    let shownTag = HTMLReport.clipped(tag, to: max(34 - shownName.count, 6))
    svg +=
      "<text class=\"peer\" x=\"6\" y=\"\(HTMLReport.coordinate(top + 12))\">"
      + HTMLReport.escape(shownName)
      + (tag.isEmpty ? "" : "<tspan class=\"tag\"> \(HTMLReport.escape(shownTag))</tspan>")
      + "<title>\(about)</title></text>"
    var y = top + Row.peerHeader
    for lane in lanes {
      let kind = HTMLReport.escape(lane.kind)
      svg +=
        "<text class=\"small\" x=\"\(HTMLReport.coordinate(axis.left - 4))\" "
        + "y=\"\(HTMLReport.coordinate(y + 8.5))\" text-anchor=\"end\">\(kind)</text>"
      for segment in HTMLReport.merged(lane.segments) {
        let extent = axis.extent(segment.from, segment.to)
        let value = HTMLReport.escape(segment.value)
        svg +=
          "<rect x=\"\(HTMLReport.coordinate(extent.x))\" y=\"\(HTMLReport.coordinate(y))\" "
          + "width=\"\(HTMLReport.coordinate(extent.width))\" height=\"\(Int(Row.laneBar))\" "
          + "fill=\"\(HTMLReport.laneColour(kind: lane.kind, value: segment.value))\">"
          + "<title>\(name) \(kind): \(value), \(HTMLReport.span(segment.from, segment.to))"
          + "</title></rect>"
        // A subsession's name inside its bar, when it fits.
        if lane.kind == "subsession" && extent.width >= Double(segment.value.count) * 5.5 + 6 {
          svg +=
            "<text class=\"inside\" x=\"\(HTMLReport.coordinate(extent.x + 3))\" "
            + "y=\"\(HTMLReport.coordinate(y + 8))\">\(value)</text>"
        }
      }
      y += Row.lane
    }
    if !peer.callbacks.isEmpty {
      svg += callbackTicks(peer, name: name, top: y)
    }
    return (svg + "</g>", height)
  }

  /// A peer's callbacks as ticks: callbacks in one pixel share a tick, at most
  /// ``HTMLReport/callbackTickCap`` ticks, the label saying so when there were more. Ticks
  /// within four pixels are one element with one title listing each (a browser lays out
  /// elements, not ticks: this keeps a page of many busy peers quick to load).
  private func callbackTicks(_ peer: RunTimeline.Peer, name: String, top: Double) -> String {
    var marks = peer.callbacks
    if !zip(marks, marks.dropFirst()).allSatisfy({ $0.at <= $1.at }) {
      marks = marks.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
        .map(\.element)
    }
    var ticks: [(x: Double, first: Int64, last: Int64, count: Int, names: [String])] = []
    for mark in marks {
      let x = axis.x(mark.at).rounded()
      if let last = ticks.last, last.x == x {
        ticks[ticks.count - 1].last = mark.at
        ticks[ticks.count - 1].count += 1
        if last.names.count < 3 { ticks[ticks.count - 1].names.append(mark.name) }
      } else {
        ticks.append((x, mark.at, mark.at, 1, [mark.name]))
      }
    }
    let cap = HTMLReport.callbackTickCap
    let capped = ticks.count > cap
    var label = "callbacks"
    var about =
      "\(HTMLReport.grouped(marks.count)) callbacks recorded, \(HTMLReport.grouped(ticks.count)) "
      + "ticks (callbacks in one pixel share one)"
    if capped {
      label = "callbacks (first \(cap))"
      about += "; only the first \(cap) ticks are drawn, up to "
      about += HTMLReport.seconds(ticks[cap - 1].last)
    }
    var svg =
      "<text class=\"small\" x=\"\(HTMLReport.coordinate(axis.left - 4))\" "
      + "y=\"\(HTMLReport.coordinate(top + 7.5))\" text-anchor=\"end\">\(label)"
      + "<title>\(name): \(about)</title></text><g class=\"cb\">"
    let y = HTMLReport.coordinate(top)
    var path = ""
    var lines: [String] = []
    var clusterStart = -Double.infinity
    func flush() {
      guard !path.isEmpty else { return }
      svg += "<path d=\"\(path)\"><title>\(name): \(lines.joined(separator: "\n"))</title></path>"
      path = ""
      lines = []
    }
    for tick in ticks.prefix(cap) {
      if tick.x >= clusterStart + 4 {
        flush()
        clusterStart = tick.x
      }
      path += "M\(HTMLReport.coordinate(tick.x)) \(y)v8"
      let names = tick.names.map(HTMLReport.escape).joined(separator: ", ")
      if tick.count == 1 {
        lines.append("\(names) at \(HTMLReport.seconds(tick.first))")
      } else {
        let more = tick.count > tick.names.count ? ", \u{2026}" : ""
        lines.append(
          "\(tick.count) callbacks at \(HTMLReport.span(tick.first, tick.last)): \(names)\(more)")
      }
    }
    flush()
    return svg + "</g>"
  }

  /// A fault's band over every lane, its label at its top.
  private func faultBand(_ fault: RunTimeline.FaultBand, labelY: Double, bottom: Double) -> String {
    let kind = HTMLReport.escape(fault.kind)
    let colour = HTMLReport.faultColour(fault.kind)
    let extent = axis.extent(fault.from, fault.to)
    let width = max(extent.width, 2)
    let peers =
      fault.peers.isEmpty ? "all" : fault.peers.map(HTMLReport.escape).joined(separator: ", ")
    var svg =
      "<g class=\"fault\" data-kind=\"\(kind)\"><title>\(kind) \(HTMLReport.span(fault.from, fault.to)): "
      + "\(HTMLReport.escape(fault.label)) (peers: \(peers))</title>"
    svg +=
      "<rect class=\"band\" x=\"\(HTMLReport.coordinate(extent.x))\" "
      + "y=\"\(HTMLReport.coordinate(labelY))\" width=\"\(HTMLReport.coordinate(width))\" "
      + "height=\"\(HTMLReport.coordinate(bottom - labelY))\" fill=\"\(colour)\" opacity=\".16\"/>"
    svg +=
      "<rect class=\"band\" x=\"\(HTMLReport.coordinate(extent.x))\" "
      + "y=\"\(HTMLReport.coordinate(labelY))\" width=\"\(HTMLReport.coordinate(width))\" "
      + "height=\"2\" fill=\"\(colour)\"/>"
    let text = HTMLReport.escape(HTMLReport.clipped(fault.label, to: 48))
    let textWidth = Self.width(of: HTMLReport.clipped(fault.label, to: 48), perCharacter: 5.6)
    let x = min(extent.x + 2, axis.total - textWidth)
    svg +=
      "<text x=\"\(HTMLReport.coordinate(max(x, axis.left)))\" "
      + "y=\"\(HTMLReport.coordinate(labelY + 11))\" fill=\"\(colour)\">\(text)</text>"
    return svg + "</g>"
  }

  /// The heal: where the scripted part ended.
  private func healMark(top: Double, bottom: Double) -> String {
    guard run.scriptedEnd > 0 && run.scriptedEnd <= axis.end else { return "" }
    let x = axis.x(run.scriptedEnd)
    let anchor = x > axis.right - 80 ? "end" : "start"
    let textX = anchor == "end" ? x - 3 : x + 3
    return
      "<g class=\"heal\"><title>heal: the scripted part ended at "
      + "\(HTMLReport.seconds(run.scriptedEnd))</title><path d=\"M\(HTMLReport.coordinate(x)) "
      + "\(HTMLReport.coordinate(top))V\(HTMLReport.coordinate(bottom))\"/>"
      + "<text x=\"\(HTMLReport.coordinate(textX))\" y=\"\(HTMLReport.coordinate(top + 12))\" "
      + "text-anchor=\"\(anchor)\">heal \(HTMLReport.seconds(run.scriptedEnd))</text></g>"
  }

  /// A failure's marker: a line at its time, its number and check (a link to its row in the
  /// failures table), the rest in its title.
  private func failureMark(
    _ failure: RunTimeline.FailureMark, number: Int, top: Double, labelY: Double,
    anchorEnd: Bool, bottom: Double
  ) -> String {
    let x = axis.x(failure.at)
    let check = HTMLReport.escape(failure.check)
    var title = "\u{2717}\(number) \(check) at \(HTMLReport.seconds(failure.at))"
    if let peer = failure.peer { title += ", peer \(HTMLReport.escape(peer))" }
    if let expected = failure.expected { title += "\nexpected: \(HTMLReport.escape(expected))" }
    if let actual = failure.actual { title += "\nactual: \(HTMLReport.escape(actual))" }
    title +=
      "\n\(HTMLReport.escape(failure.detail))\nreplay: \(HTMLReport.escape(run.replayCommand))"
    let textX = anchorEnd ? x - 3 : x + 3
    return
      "<g class=\"failure-mark\" data-check=\"\(check)\"><title>\(title)</title>"
      + "<path d=\"M\(HTMLReport.coordinate(x)) \(HTMLReport.coordinate(top))"
      + "V\(HTMLReport.coordinate(bottom))\"/><a href=\"#\(anchor)failure-\(number)\"><text "
      + "x=\"\(HTMLReport.coordinate(textX))\" y=\"\(HTMLReport.coordinate(labelY))\" "
      + "text-anchor=\"\(anchorEnd ? "end" : "start")\">"
      + "\(HTMLReport.escape(failureLabel(failure, number: number)))</text></a></g>"
  }
}
