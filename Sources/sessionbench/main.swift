// sessionbench: release-build benchmarks, each printing its baseline and ratio beside it.
//
//   swift run -c release sessionbench <benchmark> [--json]
//
// Benchmarks register themselves in `Benchmarks.swift`.

import SessionSimulation

ToolMain.run(
  tool: "sessionbench", noun: "benchmark", usage: "<benchmark> [--json]", commands: benchmarks,
  unknownStatus: 64)
