/// Draws a run's ``RunTimeline``, or a sweep's ``SweepTimeline``, as one self-contained HTML5
/// page: inline CSS and inline SVG, nothing fetched from anywhere (no framework, no font, no
/// image), and a small inline script that only shows the time under the pointer and marks when
/// the page loaded. The page reads fully without it: every mark carries an SVG `<title>`.
///
/// A run's page, top to bottom: the verdict (the summary line, the replay command); the failures
/// with their expected and actual values; one timeline over the run's time with the fault bands,
/// the heal, a marker per failure, a lane of counts per folded group and a swimlane per peer drawn
/// in full (its states, its callbacks); the faults in words; the roster as the service and each
/// chosen peer saw it, with its host; each chosen peer's media (bitrate, loss, one-way delay,
/// paused tracks, network level, freezes, and a layer strip per subscription); the one-way delay
/// and callback latency histograms; and what was still in flight at the end.
///
/// Every string from the run is HTML-escaped in text and attributes, and none goes into the
/// script. Drawings stay bounded: equal neighbouring segments merge, sampled series step at most
/// once per two pixels, callback ticks merge per pixel and stop at ``callbackTickCap`` a peer.
/// The same timeline always gives the same bytes.
///
/// The elements a browser check reads (`scripts/check-report`): one `class="lane"
/// data-peer="…"` per peer drawn, one `class="group-lane" data-group="…"` per folded group, one
/// `class="fault" data-kind="…"` per fault band and one `class="failure-mark"` per failure; on
/// `load` the script sets the root element's `data-load-ms` (milliseconds since navigation
/// started) and `data-ready="1"`.
///
/// > Important: A stateless enum.
package enum HTMLReport {
  /// How many callback ticks a peer's swimlane draws at most (ticks in one pixel count as one);
  /// the lane says so when it stops short.
  package static let callbackTickCap = 400

  /// The page of one run.
  /// - Parameter timeline: The run, as the recorder filled it.
  /// - Returns: The whole HTML file, UTF-8 text.
  package static func render(_ timeline: RunTimeline) -> String {
    var body = ""
    RunPage(timeline, anchor: "").write(into: &body)
    let verdict = timeline.passed ? "PASS" : "FAIL"
    return document(
      title: "\(verdict) \(timeline.scenario) seed \(timeline.seed): run report", body: body)
  }

  /// The page of a sweep: a table with one row per seed, as the sweep ordered them (failing
  /// seeds first), each with its replay command; then the full report of each run the sweep
  /// kept, which its row links to.
  /// - Parameter sweep: The sweep's rows and the runs drawn in full.
  /// - Returns: The whole HTML file, UTF-8 text.
  package static func render(_ sweep: SweepTimeline) -> String {
    var body = ""
    let failing = sweep.rows.filter { !$0.passed }.count
    // Each run's anchor, unique even when two runs share a seed; a row links to its seed's first.
    var used = Set<String>()
    var runAnchors: [String] = []
    var firstRun: [UInt64: String] = [:]
    for run in sweep.runs {
      var anchor = "run-\(run.seed)"
      var suffix = 2
      while used.contains(anchor) {
        anchor = "run-\(run.seed)-\(suffix)"
        suffix += 1
      }
      used.insert(anchor)
      runAnchors.append(anchor)
      if firstRun[run.seed] == nil { firstRun[run.seed] = anchor }
    }

    let verdictClass = failing == 0 ? "pass" : "fail"
    let badge = failing == 0 ? "PASS" : "FAIL"
    body += "<header class=\"verdict \(verdictClass)\" id=\"sweep\">"
    body += "<h1><span class=\"badge\">\(badge)</span> sweep of \(escape(sweep.scenario))</h1>"
    body +=
      "<p class=\"summary\">\(grouped(sweep.rows.count - failing)) of "
      + "\(grouped(sweep.rows.count)) seeds passed, \(grouped(failing)) failed "
      + "(\(escape(sweep.mode)) mode).</p>"
    body +=
      "<p class=\"facts\">Failing seeds come first. The full report of "
      + "\(sweep.runs.count == 1 ? "1 run" : "\(sweep.runs.count) runs") follows the table; "
      + "a seed's number links to it.</p></header>"

    body += "<section id=\"seeds\"><h2>Seeds</h2><table class=\"seeds\"><thead><tr>"
    body += "<th>Seed</th><th>Verdict</th><th>Drew</th><th>First failure</th><th>Replay</th>"
    body += "</tr></thead><tbody>"
    var rowIDs = Set<String>()
    for row in sweep.rows {
      var rowID = "seed-\(row.seed)"
      var suffix = 2
      while rowIDs.contains(rowID) {
        rowID = "seed-\(row.seed)-\(suffix)"
        suffix += 1
      }
      rowIDs.insert(rowID)
      let seed =
        firstRun[row.seed].map { "<a href=\"#\($0)\">\(row.seed)</a>" } ?? "\(row.seed)"
      body += "<tr id=\"\(rowID)\" class=\"\(row.passed ? "pass" : "fail")\">"
      body += "<td class=\"num\">\(seed)</td>"
      body += "<td><span class=\"badge\">\(row.passed ? "PASS" : "FAIL")</span></td>"
      body += "<td>\(row.drew.isEmpty ? "\u{2013}" : escape(row.drew))</td>"
      body += "<td>\(row.firstFailure.map(escape) ?? "\u{2013}")</td>"
      body += "<td><code class=\"replay\">\(escape(row.replayCommand))</code></td></tr>"
    }
    body += "</tbody></table></section>"

    for (run, anchor) in zip(sweep.runs, runAnchors) {
      body += "<section class=\"run\" id=\"\(anchor)\">"
      let rowLink =
        sweep.rows.contains { $0.seed == run.seed }
        ? " <a href=\"#seed-\(run.seed)\">(its row)</a>" : ""
      body +=
        "<p class=\"back\">Seed \(run.seed)\(rowLink) \u{00b7} <a href=\"#sweep\">top</a></p>"
      RunPage(run, anchor: anchor + "-").write(into: &body)
      body += "</section>"
    }
    return document(
      title: "\(failing == 0 ? "PASS" : "FAIL") sweep of \(sweep.scenario): "
        + "\(sweep.rows.count - failing) of \(sweep.rows.count) seeds passed",
      body: body)
  }

  // MARK: The page

  /// The HTML document around a body: the style sheet, the time cursor, the script.
  /// - Parameters:
  ///   - title: The page's title, not yet escaped.
  ///   - body: The body's HTML.
  /// - Returns: The whole file.
  static func document(title: String, body: String) -> String {
    var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    html += "<title>\(escape(title))</title>\n<style>\(style)</style>\n</head>\n<body>\n"
    html.reserveCapacity(body.utf8.count + 4096)
    html += body
    html += "\n<div id=\"cursor\" hidden></div>\n<script>\(script)</script>\n</body>\n</html>\n"
    return html
  }

  /// The style sheet: system fonts only.
  static let style = """
    :root{color-scheme:light}
    body{margin:0;padding:16px 20px 40px;font:13px/1.45 system-ui,sans-serif;color:#1c2024;\
    background:#fff}
    h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:22px 0 6px}\
    h3{font-size:14px;margin:14px 0 4px}
    code,pre{font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
    pre.replay,code.replay{background:#f3f5f7;border:1px solid #dde2e6;border-radius:3px;\
    user-select:all}
    pre.replay{padding:6px 10px;margin:4px 0;white-space:pre-wrap;word-break:break-all}
    code.replay{padding:1px 4px;word-break:break-all}
    .verdict{border-left:8px solid;padding:10px 16px;margin:0 0 12px;border-radius:2px}
    .verdict.pass{border-color:#2e7d32;background:#edf7ee}.verdict.fail{border-color:#c62828;\
    background:#fdeeee}
    .badge{display:inline-block;padding:0 8px;border-radius:3px;color:#fff;font-weight:600;\
    background:#2e7d32}
    .fail .badge,tr.fail .badge{background:#c62828}
    .summary{font-weight:600;margin:4px 0}.facts,.note{color:#444;margin:4px 0}
    nav{margin:6px 0;color:#666}nav a{margin-right:12px}
    table{border-collapse:collapse;margin:6px 0}
    th,td{border-bottom:1px solid #e3e6e8;padding:3px 10px 3px 0;text-align:left;\
    vertical-align:top}
    th{font-weight:600;color:#333}td.num{font-variant-numeric:tabular-nums;white-space:nowrap}
    tr.fail td:first-child a,tr.fail td:first-child{color:#c62828;font-weight:600}
    .legend{margin:4px 0;color:#333}.legend span{white-space:nowrap;margin-right:12px}
    .legend i{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px;\
    border-radius:2px}
    .legend b{font-weight:600;margin-right:6px}
    .scroll{overflow-x:auto}
    svg{display:block;margin:4px 0}
    svg text{font:11px system-ui,sans-serif;fill:#333}
    svg text.small{font-size:9px;fill:#555}svg text.peer{font-weight:600;fill:#111}
    svg tspan.tag{font-size:9px;font-weight:400;fill:#666}
    svg text.inside{font-size:9px;fill:#fff;pointer-events:none}
    svg .axis path{stroke:#555;fill:none}svg .grid{stroke:#eceff1;fill:none}
    svg .band{pointer-events:none}svg .fault text{font-size:10px}
    svg .heal path{stroke:#2e7d32;stroke-width:1.5;stroke-dasharray:5 3;fill:none;\
    pointer-events:none}
    svg .heal text{fill:#2e7d32;font-weight:600}
    svg .failure-mark path,svg .fail-line{stroke:#c62828;stroke-width:2;fill:none;\
    pointer-events:none}
    svg .fail-line{stroke-width:1;stroke-dasharray:2 2}
    svg .failure-mark text{fill:#c62828;font-weight:700}
    svg .cb path{stroke:#37474f;stroke-width:1.5}
    svg .line{fill:none;stroke-width:1.3}svg .area{stroke:none}
    .media-peer{margin:10px 0 18px;padding-top:4px;border-top:1px solid #eceff1}
    .hist{display:inline-block;vertical-align:top;margin-right:24px}
    #cursor{position:fixed;z-index:2;padding:1px 6px;background:#263238;color:#fff;\
    font-size:12px;border-radius:3px;pointer-events:none}
    """

  /// The script: the time under the pointer over a drawing, and the load marks. It reads no
  /// run data (only the drawings' numeric `data-` attributes).
  static let script = """

    (function () {
      var root = document.documentElement;
      var cursor = document.getElementById("cursor");
      document.addEventListener("mousemove", function (event) {
        var svg = event.target.closest ? event.target.closest("svg[data-end]") : null;
        if (!svg) { cursor.hidden = true; return; }
        var box = svg.getBoundingClientRect();
        var left = Number(svg.dataset.left), width = Number(svg.dataset.width);
        var x = event.clientX - box.left;
        if (x < left || x > left + width) { cursor.hidden = true; return; }
        var seconds = (x - left) / width * Number(svg.dataset.end) / 1000;
        cursor.textContent = seconds.toFixed(1) + " s";
        cursor.style.left = (event.clientX + 14) + "px";
        cursor.style.top = (event.clientY + 14) + "px";
        cursor.hidden = false;
      });
      window.addEventListener("load", function () {
        root.dataset.loadMs = String(Math.round(performance.now()));
        root.dataset.ready = "1";
      });
    })();

    """
}

extension HTMLReport {
  /// One run's report, written into a page; its element ids start with `anchor` so that a
  /// sweep's page can hold several.
  ///
  /// > Important: A value; `Sendable`.
  struct RunPage: Sendable {
    /// The run.
    let run: RunTimeline
    /// The prefix of every id the run's part of the page uses.
    let anchor: String
    /// The run's time across the page.
    let axis: TimeAxis
    /// The sampling period, milliseconds (at least 1).
    let interval: Int64

    /// Prepares a run's report.
    /// - Parameters:
    ///   - run: The run.
    ///   - anchor: The prefix of its ids (empty for a page of its own).
    init(_ run: RunTimeline, anchor: String) {
      self.run = run
      self.anchor = anchor
      var end = max(run.end, run.scriptedEnd, 1)
      for failure in run.failures { end = max(end, failure.at) }
      self.axis = TimeAxis(end: end)
      self.interval = max(run.sampleInterval, 1)
    }

    /// Writes the whole report.
    /// - Parameter html: The page's body so far.
    func write(into html: inout String) {
      writeVerdict(into: &html)
      writeFailures(into: &html)
      writeTimeline(into: &html)
      writeFaults(into: &html)
      writeRosters(into: &html)
      writeMedia(into: &html)
      writeHistograms(into: &html)
      writeInFlight(into: &html)
    }

    /// The verdict, the summary line, the run's facts, the replay command and the contents.
    private func writeVerdict(into html: inout String) {
      let verdict = run.passed ? "PASS" : "FAIL"
      html += "<header class=\"verdict \(run.passed ? "pass" : "fail")\" id=\"\(anchor)verdict\">"
      html += "<h1><span class=\"badge\">\(verdict)</span> \(escape(run.scenario))</h1>"
      html += "<p class=\"summary\">\(escape(run.summary))</p>"
      var facts = [
        "\(escape(run.mode)) mode", "seed \(run.seed)",
        run.peerCount == 1 ? "1 peer" : "\(grouped(run.peerCount)) peers",
        "\(seconds(run.end)) (scripted part to \(seconds(run.scriptedEnd)))",
        "sampled every \(seconds(run.sampleInterval))",
      ]
      if !run.failures.isEmpty {
        facts.append(run.failures.count == 1 ? "1 failure" : "\(run.failures.count) failures")
      }
      html += "<p class=\"facts\">\(facts.joined(separator: " \u{00b7} "))</p>"
      html += "<p class=\"facts\">Replay this run:</p>"
      html += "<pre class=\"replay\"><code>\(escape(run.replayCommand))</code></pre></header>"
      var links = [("timeline", "Timeline"), ("faults", "Faults"), ("roster", "Roster")]
      if !run.failures.isEmpty { links.insert(("failures", "Failures"), at: 0) }
      if !run.media.isEmpty { links.append(("media", "Media")) }
      links.append(contentsOf: [("delays", "Delays"), ("in-flight", "In flight")])
      html += "<nav>"
      for (id, title) in links { html += "<a href=\"#\(anchor)\(id)\">\(title)</a>" }
      html += "</nav>"
    }

    /// The failures: when, which check, expected and actual, the detail, and the replay.
    private func writeFailures(into html: inout String) {
      guard !run.failures.isEmpty else { return }
      html += "<section id=\"\(anchor)failures\"><h2>Failures (\(run.failures.count))</h2>"
      html += "<p class=\"note\">Each is marked on the timeline below at its time "
      html += "(\u{2717} and its number).</p><table><thead><tr><th>#</th><th>At</th>"
      html += "<th>Check</th><th>Peer</th><th>Expected</th><th>Actual</th><th>Detail</th>"
      html += "</tr></thead><tbody>"
      for (index, failure) in run.failures.enumerated() {
        html += "<tr id=\"\(anchor)failure-\(index + 1)\" class=\"fail\">"
        html += "<td class=\"num\">\(index + 1)</td><td class=\"num\">\(seconds(failure.at))</td>"
        html += "<td>\(escape(failure.check))</td>"
        html += "<td>\(failure.peer.map(escape) ?? "\u{2013}")</td>"
        html += "<td>\(failure.expected.map { "<code>\(escape($0))</code>" } ?? "\u{2013}")</td>"
        html += "<td>\(failure.actual.map { "<code>\(escape($0))</code>" } ?? "\u{2013}")</td>"
        html += "<td>\(escape(failure.detail))</td></tr>"
      }
      html += "</tbody></table><p class=\"facts\">Replay it:</p>"
      html += "<pre class=\"replay\"><code>\(escape(run.replayCommand))</code></pre></section>"
    }

    /// Every fault in words, with its colour.
    private func writeFaults(into html: inout String) {
      html += "<section id=\"\(anchor)faults\"><h2>Faults</h2>"
      guard !run.faults.isEmpty else {
        html += "<p class=\"note\">No fault in this run.</p></section>"
        return
      }
      html += "<table><thead><tr><th>Kind</th><th>From</th><th>To</th><th>What</th>"
      html += "<th>Peers</th></tr></thead><tbody>"
      for fault in run.faults {
        html += "<tr><td class=\"legend\"><i style=\"background:\(faultColour(fault.kind))\">"
        html += "</i>\(escape(fault.kind))</td><td class=\"num\">\(seconds(fault.from))</td>"
        html += "<td class=\"num\">\(seconds(fault.to))</td><td>\(escape(fault.label))</td>"
        let peers = fault.peers.isEmpty ? "all" : fault.peers.map(escape).joined(separator: ", ")
        html += "<td>\(peers)</td></tr>"
      }
      html += "</tbody></table></section>"
    }

    /// What was still in flight at the end, in words.
    private func writeInFlight(into html: inout String) {
      html += "<section id=\"\(anchor)in-flight\"><h2>In flight at the end</h2>"
      if run.inFlight.isEmpty {
        html += "<p class=\"note\">Nothing was in flight at the end.</p>"
      } else {
        html += "<ul>"
        for line in run.inFlight { html += "<li>\(escape(line))</li>" }
        html += "</ul>"
      }
      html += "</section>"
    }

    // MARK: Marks shared by the drawings

    /// Faint fault bands, the heal and failure lines behind a drawing other than the timeline
    /// (they carry no `fault` or `failure-mark` class: those are the timeline's alone).
    /// - Parameters:
    ///   - top: Where the marks start, pixels.
    ///   - bottom: Where they end, pixels.
    /// - Returns: SVG elements.
    func contextMarks(from top: Double, to bottom: Double) -> String {
      var svg = ""
      let height = coordinate(bottom - top)
      for fault in run.faults {
        let extent = axis.extent(fault.from, fault.to)
        svg +=
          "<rect class=\"band\" x=\"\(coordinate(extent.x))\" y=\"\(coordinate(top))\" "
          + "width=\"\(coordinate(max(extent.width, 2)))\" height=\"\(height)\" "
          + "fill=\"\(faultColour(fault.kind))\" opacity=\".1\"/>"
      }
      if run.scriptedEnd > 0 && run.scriptedEnd < axis.end {
        svg +=
          "<g class=\"heal\"><path d=\"M\(coordinate(axis.x(run.scriptedEnd))) "
          + "\(coordinate(top))V\(coordinate(bottom))\"/></g>"
      }
      for failure in run.failures {
        svg +=
          "<path class=\"fail-line\" d=\"M\(coordinate(axis.x(failure.at))) "
          + "\(coordinate(top))V\(coordinate(bottom))\"/>"
      }
      return svg
    }

    /// The opening tag of a drawing over the run's time.
    /// - Parameters:
    ///   - height: Its height, pixels.
    ///   - label: What it shows, for assistive technology.
    /// - Returns: The `<svg …>` tag.
    func svgOpen(height: Double, label: String) -> String {
      "<div class=\"scroll\"><svg class=\"timeline\" width=\"\(coordinate(axis.total))\" "
        + "height=\"\(coordinate(height))\" viewBox=\"0 0 \(coordinate(axis.total)) "
        + "\(coordinate(height))\" \(axis.dataAttributes) role=\"img\" "
        + "aria-label=\"\(escape(label))\">"
    }

    /// The closing tags of ``svgOpen(height:label:)``.
    static let svgClose = "</svg></div>"
  }
}
