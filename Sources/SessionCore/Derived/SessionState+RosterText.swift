/// The roster as text, for the tools that print it (the demo's event log, a run's narration):
/// one printer, two layouts.
extension SessionState {
  /// The roster in role order as a table, a header and one line per user: role, name (`(me)`
  /// for this replica's own user), video, audio (`mic on`, `muted`, `phone`; `*` while
  /// talking) and share.
  ///
  /// - Returns: The lines; `["(not in a session)"]` outside a session.
  package func rosterTable() -> [String] {
    guard phase.acceptsSessionEvents else { return ["(not in a session)"] }
    return ["roster (\(participants.count)):"]
      + orderedRoster.map { user in
        let role =
          switch user.role {
          case .host: "host   "
          case .manager: "manager"
          case .participant: "       "
          }
        let me = user.id == myselfID ? " (me)" : ""
        let label = (user.name + me).padding(toLength: 18)
        let video = user.isVideoOn ? "video" : "     "
        let audio =
          switch (user.audio.type, user.audio.isMuted) {
          case (.none, _): "       "
          case (_, true): "muted  "
          case (.telephony, false): "phone  "
          case (.voip, false): "mic on "
          }
        let talking = user.audio.isTalking ? "*" : " "
        let share =
          switch user.shareStatus {
          case .started, .resumed: "  sharing"
          case .paused: "  sharing (paused)"
          case .none, .stopped: ""
          }
        let line = "  \(role)  \(label) \(video)  \(audio)\(talking)\(share)"
        return String(line.reversed().drop { $0 == " " }.reversed())
      }
  }

  /// The roster in role order on one line: names, `★` before the host, `☆` before managers,
  /// `⧉` after a sharer; past `limit` names, the first `limit - 2` and how many more.
  ///
  /// - Parameter limit: The most names written out in full.
  /// - Returns: The line; `(not in the session)` outside a session.
  package func rosterLine(limit: Int = 8) -> String {
    guard phase.acceptsSessionEvents else { return "(not in the session)" }
    func label(_ user: Participant) -> String {
      let mark = user.role == .host ? "★ " : user.role == .manager ? "☆ " : ""
      return mark + user.name + (user.shareStatus.isActive ? " ⧉" : "")
    }
    let roster = orderedRoster
    guard roster.count > limit else { return roster.map(label).joined(separator: ", ") }
    // A large session writes out only the names it shows.
    let shown = max(0, limit - 2)
    return roster.prefix(shown).map(label).joined(separator: ", ")
      + " … and \(roster.count - shown) more"
  }
}

extension String {
  /// The string cut or padded with spaces to `length` characters.
  fileprivate func padding(toLength length: Int) -> String {
    count >= length ? String(prefix(length)) : self + String(repeating: " ", count: length - count)
  }
}
