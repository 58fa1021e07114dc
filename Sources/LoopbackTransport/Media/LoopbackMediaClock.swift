import CLibUV

/// The clock of the loopback media plane: microseconds on the system's monotonic clock
/// (`uv_hrtime`), the same for every loop and thread of the process.
///
/// The server stamps the datagrams it hands its media host with it, and the client media links
/// their ticks and arrivals, so a packet's send time and its arrival time compare across loops.
/// Its epoch is arbitrary (usually the boot): use differences.
package enum LoopbackMediaClock {
  /// Microseconds now; any thread; never goes back.
  ///
  /// - Returns: The time in microseconds.
  @inline(__always)
  package static func now() -> Int64 {
    Int64(truncatingIfNeeded: uv_hrtime() / 1_000)
  }
}
