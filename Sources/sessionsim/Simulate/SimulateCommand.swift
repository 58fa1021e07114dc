import Dispatch
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sessionsim simulate`: the main job. A session service on a loopback port and a classroom
/// of scripted SDK peers on a second loop, over real sockets in one process: a teacher and a
/// co-teacher (`role_type` 1) and students join, the classroom script runs (share lock,
/// share, annotation, mute all, chat, video toggles), then the teacher drops out, the
/// co-teacher becomes host, the teacher rejoins and reclaims host. Prints the roster (★ host,
/// ☆ manager, ⧉ sharing), in role
/// order as the co-teacher sees it, whenever membership, roles or shares change; at the end
/// checks that every replica equals the service's state. Exits 0 when they converged.
@Sendable func runSimulate(_ arguments: [String]) throws {
  let usage = "simulate [--students N] [--seconds T]"
  let parser = try OptionParser(
    arguments, options: ["--students", "--seconds"], switches: [], usage: usage)
  let students = try parser.integer("--students", default: 10, in: 1...500)
  let seconds = try parser.seconds("--seconds", default: 2)
  raiseOpenFileLimit()

  let session = "Algebra101"
  let service = ServiceConfiguration(
    credentials: [DefaultCredentials.key: DefaultCredentials.secret])
  let server = try LoopbackServer(makeHost: { SessionService(configuration: service) })
  defer { server.shutdown() }
  printLine("service listening on 127.0.0.1:\(server.port)")

  let options = try PeerOptions([
    "--port", "\(server.port)", "--session", session, "--count", "\(students + 2)",
    "--script", "classroom", "--role", "host", "--seconds", "\(seconds)", "--name", "member",
  ])
  let loop = try EventLoop(name: "sessionsim-simulate")
  defer { loop.shutdown() }
  let group = try loop.runBlocking {
    let group = PeerGroup(options: options, loop: loop, coTeacher: 1)
    group.watchRoster(of: 1)
    return LoopBound(group, loop: loop)
  }

  printLine("\(students + 2) peers join \(session): a teacher, a co-teacher, \(students) students")
  for index in 0..<(students + 2) {
    try loop.runBlocking { group.value.join(index) }
    _ = try poll(seconds: 10) { try loop.runBlocking { group.value.peers[index].isInSession } }
  }
  guard try loop.runBlocking({ group.value.allInSession }) else {
    throw CommandFailure("not every peer joined", status: 2)
  }

  printLine("running the classroom script for \(seconds) s")
  let steps = max(8, Int(seconds * 10))
  for number in 0..<steps {
    try loop.runBlocking { group.value.step(number) }
    usleep(100_000)
  }

  printLine("the teacher (member-1) leaves; the service hands host to the co-teacher (member-2)")
  try loop.runBlocking { _ = group.value.peers[0].sdk.leaveSession(false) }
  _ = try poll(seconds: 10) {
    try loop.runBlocking { group.value.peers[1].state.isHost }
  }
  printLine(
    "the teacher rejoins (as a manager) and reclaims host; the co-teacher is a manager again")
  try loop.runBlocking { group.value.join(0) }
  _ = try poll(seconds: 10) { try loop.runBlocking { group.value.peers[0].isInSession } }
  try loop.runBlocking { _ = group.value.peers[0].sdk.getUserHelper().reclaimHost() }
  _ = try poll(seconds: 10) { try loop.runBlocking { group.value.peers[0].state.isHost } }

  // Every replica against the service's own state.
  let converged = try poll(seconds: 15) {
    let facts = try runBlockingOnServer(server) { $0.state(ofSession: session)?.sharedFacts }
    return try loop.runBlocking {
      group.value.peers.allSatisfy { $0.isInSession && $0.state.sharedFacts == facts }
    }
  }
  for line in try loop.runBlocking({ group.value.summary() }) { printLine(line) }
  printLine(
    converged
      ? "converged: yes — all \(students + 2) replicas equal the service's state"
      : "converged: NO")
  printLine("everyone leaves")
  try loop.runBlocking { group.value.leaveAll() }
  _ = try poll(seconds: 10) { try loop.runBlocking { group.value.allOut } }
  guard converged else { throw CommandFailure("the replicas did not converge", status: 1) }
}

/// Runs `body` with the server's host on its loop and waits for the answer.
private func runBlockingOnServer<Result: Sendable>(
  _ server: LoopbackServer<SessionService>,
  _ body: @escaping @Sendable (SessionService) -> Result
) throws -> Result {
  try server.loop.runBlocking { body(server.host) }
}
