import Foundation
import SessionCore
import SessionSimulation

/// `sessionsim demo [--trace FILE]`: replays a trace (by default the bundled classroom; any
/// version `Trace.parse` reads) into a store and prints each event, and the roster in role
/// order whenever it changes.
@Sendable func runDemo(_ arguments: [String]) throws {
  var tracePath: String?
  var rest = arguments[...]
  while let argument = rest.popFirst() {
    switch argument {
    case "--trace":
      guard let path = rest.popFirst() else { throw CommandFailure("--trace needs a file") }
      tracePath = path
    default:
      throw CommandFailure("unknown option \(argument); usage: demo [--trace FILE]", status: 2)
    }
  }
  let (name, text) = try loadTrace(path: tracePath)
  let parsed = Trace.parse(text)
  let trace = parsed.trace
  let source = trace.header.source.map { ", recorded by \"\($0)\"" } ?? ""
  print(
    "sessionsim demo: replaying \(name) (trace version \(trace.header.version), "
      + "\(trace.events.count) events\(source))")
  print("The roster is printed in role order (host, managers, everyone else, each by join")
  print("order) whenever it changes: video, audio (mic on, muted, phone), * talking, sharing.")
  print("")

  // Replay with the recorded timestamps, so the printed clock is the class's.
  var now = trace.events.first?.timestamp ?? 0
  let store = SessionStore { now }
  var printer = RosterPrinter(start: now, names: trace.header.users)
  store.addObserver { applied, state in printer.show(applied, state) }
  for (index, recorded) in trace.events.enumerated() {
    now = recorded.timestamp
    if case .rejected(let rejection) = store.send(recorded.event) {
      // Line numbers as Trace.replay(into:) reports them: the header is line 1.
      throw CommandFailure("\(name): trace line \(index + 2): \(rejection)")
    }
  }
  if let error = parsed.error {
    throw CommandFailure("\(name): \(error)")
  }
  let state = store.state
  let invariants = state.checkInvariants().isEmpty ? "hold" : "are BROKEN"
  print("")
  print("Replayed \(store.appliedCount) events, none rejected; invariants \(invariants).")
}

/// The trace's display name and text: the bundled classroom, or a file.
private func loadTrace(path: String?) throws -> (String, String) {
  if let path {
    do {
      return (path, try String(contentsOfFile: path, encoding: .utf8))
    } catch {
      throw CommandFailure("cannot read \(path): \(error.localizedDescription)")
    }
  }
  guard
    let url = Bundle.module.url(
      forResource: "classroom", withExtension: "jsonl", subdirectory: "Resources")
  else { throw CommandFailure("the bundled classroom.jsonl is missing") }
  return ("classroom.jsonl", try String(contentsOf: url, encoding: .utf8))
}

/// Prints each applied event as a line and the roster whenever its rendering changes.
struct RosterPrinter {
  let start: Int64
  private var names: [UserID: String] = [:]
  private var lastRoster: [String] = []

  /// - Parameters:
  ///   - start: The time the clock counts from, in milliseconds.
  ///   - names: Names to start from: a trace header's `users`; the roster's names replace them.
  init(start: Int64, names: [UserID: String] = [:]) {
    self.start = start
    self.names = names
  }

  mutating func show(_ applied: AppliedEvent, _ state: SessionState) {
    let seconds = Double(applied.timestamp - start) / 1_000
    let clock = String(format: "%3d:%02d", Int(seconds) / 60, Int(seconds) % 60)
    print(
      String(format: "#%-3llu", applied.sequence) + "\(clock)  \(narrate(applied.event, state))")
    for participant in state.participants.values { names[participant.id] = participant.name }
    let roster = state.rosterTable()
    if roster != lastRoster {
      for line in roster { print("          \(line)") }
      lastRoster = roster
    }
  }

  private func name(_ id: UserID) -> String { names[id] ?? "user \(id.rawValue)" }

  /// The event in words, with names as the roster knew them.
  private func narrate(_ event: SessionEvent, _ state: SessionState) -> String {
    switch event {
    case .initialized: return "SDK initialized"
    case .cleanedUp: return "SDK cleaned up"
    case .joinRequested(let session, let user): return "joining \(session) as \(user)"
    case .sessionJoined(let snapshot):
      return "joined \(snapshot.sessionName) (\(snapshot.participants.count) present)"
    case .joinFailed(let error): return "join failed: \(error.sdkName)"
    case .leaveRequested: return "leaving"
    case .sessionLeft(let reason):
      let why =
        switch reason {
        case .bySelf: "I left"
        case .kickByHost: "removed by the host"
        case .endByHost: "the host ended it"
        case .networkError: "network error"
        case .unknown: "unknown reason"
        }
      return "left the session (\(why))"
    case .usersJoined(let users):
      return users.map { "\($0.name) joined" + ($0.role == .participant ? "" : " as \($0.role)") }
        .joined(separator: ", ")
    case .usersLeft(let ids): return ids.map { "\(name($0)) left" }.joined(separator: ", ")
    case .videoStatusChanged(let user, let isOn):
      return "\(name(user)) turned video \(isOn ? "on" : "off")"
    case .audioStatusChanged(let user, let type, let isMuted):
      return type == .none
        ? "\(name(user)) disconnected audio" : "\(name(user)) \(isMuted ? "muted" : "unmuted")"
    case .activeSpeakersChanged(let ids):
      return ids.isEmpty
        ? "nobody is talking" : "talking: " + ids.map(name).joined(separator: ", ")
    case .hostAskedUnmute(let asker): return "\(name(asker)) asks me to unmute"
    case .shareStatusChanged(let user, let status, let kind):
      return "\(name(user)) \(status) sharing" + (status == .started ? " (\(kind))" : "")
    case .shareSettingChanged(let setting): return "share setting: \(setting)"
    case .hostChanged(let host): return "\(name(host)) is now host"
    case .spotlightChanged(let users):
      return users.isEmpty
        ? "nobody is spotlighted" : "spotlighted: " + users.map(name).joined(separator: ", ")
    case .commandReceived(let sender, let content):
      return "command from \(name(sender)): \(content)"
    case .subSession(.statusChanged(let status, let list)):
      return "subsessions \(status): " + list.map(\.name).joined(separator: ", ")
    case .subSession(.userMoved(let user, let destination)):
      return "\(name(user)) moved to "
        + (destination.map { "subsession \($0)" } ?? "the main session")
    case .subSession(.broadcast(let sender, let message)):
      return "broadcast from \(name(sender)): \(message)"
    case .subSession(.helpRequested(let user, let id)):
      return "\(name(user)) asks for help in subsession \(id)"
    case .subSession(.helpResult(let result)):
      return "help request: \(result)"
    case .recording(.statusChanged(let status)):
      return "cloud recording: \(status)"
    case .recording(.agreed(let user)):
      return "\(name(user)) agreed to be recorded"
    case .managerChanged(let user, let isManager):
      return "\(name(user)) is \(isManager ? "now" : "no longer") a manager"
    case .nameChanged(let user, let newName): return "\(name(user)) is now called \(newName)"
    case .annotationStarted(let user, let owner):
      return "\(name(user)) annotates on \(name(owner))'s share"
    case .annotationStopped(let user, let owner):
      return "\(name(user)) stopped annotating on \(name(owner))'s share"
    case .annotationCleared(let user, let owner, let type):
      let which =
        switch type {
        case .all: "all"
        case .others: "everyone else's"
        case .mine: "their own"
        }
      return "\(name(user)) cleared \(which) annotations on \(name(owner))'s share"
    case .annotationPrivilegeChanged(let owner, let disabled):
      return "\(name(owner)) \(disabled ? "disabled" : "enabled") viewer annotation"
    case .chatMessageReceived(let message):
      let to = message.receiver.map { " to \(name($0))" } ?? ""
      return "chat from \(name(message.sender))\(to): \(message.content)"
    case .chatMessageDeleted(let id, let by):
      let who =
        switch by {
        case .selfSender: "by its sender"
        case .host: "by the host"
        case .dlp: "by data-loss prevention"
        case .none: "by someone"
        }
      return "chat message \(id) deleted \(who)"
    case .chatPrivilegeChanged(let privilege): return "chat privilege: \(privilege)"
    case .networkStatusChanged(let user, let quality):
      return "\(name(user))'s network is \(quality)"
    case .errorOccurred(let error, let detail): return "error \(error.sdkName) (\(detail))"
    }
  }
}
