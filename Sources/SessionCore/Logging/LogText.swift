/// Text a peer supplied (a hello's client name, a goodbye's text), made safe to put in a log
/// record.
///
/// A log line is read by people and parsed by tools, and a peer chooses these strings: a client
/// name holding `"\nwarning c1: closed: …"` would otherwise forge a record, a bidirectional
/// override would make the line read differently from its bytes, and a 60 KB name would
/// swamp the log. ``escaped(_:limit:)`` keeps printable text as it is and makes the rest
/// visible.
///
/// > Important: Pure; usable on any thread.
package enum LogText {
  /// The most characters (Unicode scalars, escapes included) kept from a peer's text.
  package static let limit = 120

  /// `text` with every character that could break or disguise a log line written as a visible
  /// escape, and cut after `limit` characters.
  ///
  /// - `\n`, `\r` and `\t` become `\n`, `\r` and `\t`; a backslash becomes `\\`, so that
  ///   escapes are unambiguous.
  /// - `[` and `]` become `\[` and `\]`: log lines put a client's name in brackets
  ///   (`closed: peer closed [Ada]`), so a name must not be able to close the bracket early and
  ///   fake what follows.
  /// - Other control characters (C0, DEL, C1), the line and paragraph separators U+2028 and
  ///   U+2029, and the bidirectional formatting characters (U+061C, U+200E, U+200F,
  ///   U+202A–U+202E, U+2066–U+2069) become `\u{…}` with the scalar's hexadecimal value.
  /// - Longer text keeps its first `limit` characters and ends with `…(N bytes)`, N being the
  ///   whole text's UTF-8 size.
  ///
  /// - Parameters:
  ///   - text: The peer's text.
  ///   - limit: The most characters to keep, escapes included.
  /// - Returns: A single line of at most `limit` characters plus the length note.
  /// - Complexity: O(`limit`): the text is read only as far as the cut (and its UTF-8 size,
  ///   which a native string knows).
  package static func escaped(_ text: String, limit: Int = LogText.limit) -> String {
    let isPlain = text.utf8.allSatisfy {
      $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C && $0 != 0x5B && $0 != 0x5D
    }
    if text.utf8.count <= limit, isPlain {
      return text  // printable ASCII, short: the common case
    }
    var result = ""
    var kept = 0
    for scalar in text.unicodeScalars {
      let escape = escape(for: scalar)
      let width = escape?.unicodeScalars.count ?? 1
      guard kept + width <= limit else {
        result += "…(\(text.utf8.count) bytes)"
        return result
      }
      if let escape {
        result += escape
      } else {
        result.unicodeScalars.append(scalar)
      }
      kept += width
    }
    return result
  }

  /// The visible form of `scalar`, or `nil` to keep it as it is.
  private static func escape(for scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0x09: return "\\t"
    case 0x5C: return "\\\\"
    case 0x5B: return "\\["
    case 0x5D: return "\\]"
    case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E,
      0x2066...0x2069:
      return "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    default:
      return nil
    }
  }
}
