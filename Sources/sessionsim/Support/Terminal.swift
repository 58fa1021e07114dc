import Foundation

/// What standard output is: colours only on a terminal (and not with `NO_COLOR` set or
/// `TERM=dumb`), so that piped output and `--json` stay plain.
///
/// > Important: Stateless; reads the process's environment once.
enum Terminal {
  /// Whether standard output takes colours.
  static let colours: Bool = {
    let environment = ProcessInfo.processInfo.environment
    guard isatty(STDOUT_FILENO) == 1, environment["NO_COLOR"] == nil else { return false }
    return environment["TERM"] != "dumb"
  }()

  /// The terminal's width in columns (80 when it cannot tell).
  static var columns: Int {
    var size = winsize()
    guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 10 else { return 80 }
    return Int(size.ws_col)
  }

  private static func paint(_ text: String, _ code: String) -> String {
    colours ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// Red, on a terminal.
  static func red(_ text: String) -> String { paint(text, "31") }
  /// Green, on a terminal.
  static func green(_ text: String) -> String { paint(text, "32") }
  /// Bold, on a terminal.
  static func bold(_ text: String) -> String { paint(text, "1") }

  /// A verdict line with its first word (`PASS`, `FAIL`) in green or red, on a terminal.
  static func colouringVerdict(_ line: String) -> String {
    if line.hasPrefix("PASS") { return green("PASS") + line.dropFirst(4) }
    if line.hasPrefix("FAIL") { return red("FAIL") + line.dropFirst(4) }
    return line
  }
}
