import Dispatch
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionSimulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sessionsim peer`: K scripted SDK peers, on one client loop, in a session served by
/// `sessionsim serve` (or any loopback server). Exits 0 when their replicas converged.
@Sendable func runPeer(_ arguments: [String]) throws {
  let options = try PeerOptions(arguments)
  raiseOpenFileLimit()
  let loop = try EventLoop(name: "sessionsim-peers")
  defer { loop.shutdown() }
  let group = try loop.runBlocking {
    LoopBound(PeerGroup(options: options, loop: loop), loop: loop)
  }

  // Join.
  try loop.runBlocking { group.value.joinAll() }
  let joined = try poll(seconds: 20) {
    try loop.runBlocking { group.value.allInSession || !group.value.failedPeers.isEmpty }
  }
  let (allIn, ids, failures) = try loop.runBlocking {
    (
      group.value.allInSession, group.value.userIDs.map { "\($0)" },
      group.value.failedPeers.map {
        "\($0.name): \($0.errors) \($0.lastLeaveReason.map { "\($0)" } ?? "")"
      }
    )
  }
  guard joined, allIn else {
    for line in try loop.runBlocking({ group.value.summary() }) { printLine(line) }
    throw CommandFailure(
      "not every peer joined \(options.session) on \(options.host):\(options.port): "
        + (failures.isEmpty ? "timed out" : failures.joined(separator: "; ")), status: 2)
  }
  printLine(
    "joined \(options.count) peers to \(options.session) on \(options.host):\(options.port) "
      + "as users \(ids.joined(separator: ", "))")

  // Script.
  printLine("running \(options.script.rawValue) for \(options.seconds) s")
  let steps = max(1, Int(options.seconds * 10))
  let start = DispatchTime.now().uptimeNanoseconds
  for number in 0..<steps {
    try loop.runBlocking { group.value.step(number) }
    let due = start + UInt64(number + 1) * 100_000_000
    let now = DispatchTime.now().uptimeNanoseconds
    if due > now { usleep(UInt32((due - now) / 1_000)) }
  }

  // Everyone back in, then wait for the replicas to agree.
  try loop.runBlocking { group.value.joinAll() }
  let converged = try poll(seconds: 15) {
    try loop.runBlocking { group.value.convergence().converged }
  }
  let sequence = try loop.runBlocking { group.value.peers.first?.sdk.lastServiceSequence ?? 0 }
  for line in try loop.runBlocking({ group.value.summary() }) { printLine(line) }
  printLine(
    converged
      ? "converged: yes (\(options.count) replicas agree at sequence \(sequence))"
      : "converged: NO")

  // Leave.
  try loop.runBlocking { group.value.leaveAll() }
  let left = try poll(seconds: 10) { try loop.runBlocking { group.value.allOut } }
  printLine(left ? "left: \(options.count) peers" : "left: not every peer left in time")
  guard converged else { throw CommandFailure("the replicas did not converge", status: 1) }
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass.
func poll(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
  let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
  while true {
    if try condition() { return true }
    if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
    usleep(20_000)
  }
}
