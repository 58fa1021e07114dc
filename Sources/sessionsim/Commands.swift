import SessionSimulation

/// A command the tool runs by name.
typealias Command = ToolCommand

/// A command's failure: the message printed (on standard error) and the exit status.
typealias CommandFailure = ToolFailure

/// Every command, by the name given on the command line. Add one line per command.
let commands: [String: Command] = [
  "run": Command(
    summary: "run a scenario file (deterministic or loopback mode) and print its verdict",
    usage: runUsage, run: runRun),
  "matrix": Command(
    summary: "strike each fault in each phase of a session over many seeds; the table",
    usage: matrixUsage, run: runMatrix),
  "merge": Command(
    summary: "merge the --json lines of a sweep's shards into one verdict",
    usage: mergeUsage, run: runMerge),
  "replay": Command(
    summary: "run a trace's scenario and seed again and compare the traces",
    usage: replayUsage, run: runReplay),
  "report": Command(
    summary: "write the HTML report of a recorded run (a --trace file)",
    usage: reportUsage, run: runReport),
  "token": Command(
    summary: "mint a development JWT (HS256) for a session",
    usage: tokenUsage, run: runToken),
  "simulate": Command(
    summary: "run the bundled classroom scenario (a teacher, 30 students, a network drop)",
    usage: simulateUsage, run: runSimulate),
  "demo": Command(
    summary: "replay the bundled classroom trace, printing the roster as it changes",
    usage: "demo [--trace FILE]", run: runDemo),
  "classroom-trace": Command(
    summary: "print the classroom trace the demo bundles (JSON Lines), regenerated",
    usage: "classroom-trace", run: runClassroomTrace),
  "serve": Command(
    summary: "serve sessions on a loopback port until SIGINT, SIGTERM or end of stdin",
    usage: serveUsage, run: runServe),
  "peer": Command(
    summary: "run K scripted SDK peers against a server; exit 0 if their replicas converged",
    usage: PeerOptions.usage, run: runPeer),
]
