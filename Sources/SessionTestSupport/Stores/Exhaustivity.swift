import SessionSDK

/// How strictly a test store checks what a test did not assert, as in TCA's `TestStore`.
///
/// > Important: A `Sendable` value.
public enum Exhaustivity: Sendable, Hashable {
  /// Every state change and every callback must be asserted; anything left over fails the test.
  case on
  /// Only what a test asserts is checked: a state closure is compared on the fields it sets,
  /// `receive` skips callbacks until the ones named, and leftovers are ignored.
  case off
}

/// Readable comparisons of callback lists for test-store failures.
enum CallbackDiff {
  /// One line per position: a tick where both agree, else what was expected and what came.
  static func describe(expected: [VideoSDKCallback], got: [VideoSDKCallback]) -> String {
    var lines: [String] = []
    for index in 0..<max(expected.count, got.count) {
      let want = index < expected.count ? expected[index] : nil
      let have = index < got.count ? got[index] : nil
      switch (want, have) {
      case (let want?, let have?) where want == have:
        lines.append("  \(index + 1). ✓ \(show(want))")
      case (let want?, let have?):
        lines.append("  \(index + 1). expected \(show(want))\n     got      \(show(have))")
      case (let want?, nil):
        lines.append("  \(index + 1). expected \(show(want))\n     got      nothing")
      case (nil, let have?):
        lines.append("  \(index + 1). expected nothing\n     got      \(show(have))")
      case (nil, nil):
        break
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The list, one callback per line.
  static func list(_ callbacks: [VideoSDKCallback]) -> String {
    callbacks.enumerated().map { "  \($0.offset + 1). \(show($0.element))" }
      .joined(separator: "\n")
  }

  /// A callback as text, without module prefixes.
  static func show(_ callback: VideoSDKCallback) -> String {
    unqualified("\(callback)")
  }
}

/// Drops the `SessionCore.` and `SessionSDK.` prefixes Swift prints before nested enum values.
func unqualified(_ text: String) -> String {
  text.replacing("SessionCore.", with: "").replacing("SessionSDK.", with: "")
}

/// Readable state differences for test-store failures.
enum StateDiff {
  /// The differences, one per line, under a heading; `nil` when there are none.
  static func describe(
    _ heading: String, expected: SessionStateFields, actual: SessionStateFields
  ) -> String? {
    let lines = expected.differences(from: actual)
    guard !lines.isEmpty else { return nil }
    return heading + " (expected → got):\n" + lines.map { "  " + $0 }.joined(separator: "\n")
  }
}
