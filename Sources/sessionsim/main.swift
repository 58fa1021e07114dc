// sessionsim: the SessionEngine command-line tool.
//
//   swift run sessionsim <command> [options]
//
// Commands register themselves in `Commands.swift`.

import SessionSimulation

ToolMain.run(
  tool: "sessionsim", noun: "command", usage: "<command> [options]", commands: commands,
  unknownStatus: 2)
