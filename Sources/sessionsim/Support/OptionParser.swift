import SessionService
import SessionSimulation

/// Reads `--name value` options and `--flag` switches from a command's arguments.
struct OptionParser {
  private var values: [String: String] = [:]
  private var flags: Set<String> = []

  /// Parses `arguments`; `switches` are the options that take no value.
  ///
  /// - Throws: `CommandFailure` (status 2) for an unknown option or a missing value.
  init(_ arguments: [String], options: Set<String>, switches: Set<String> = [], usage: String)
    throws
  {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if switches.contains(argument) {
        flags.insert(argument)
      } else if options.contains(argument) {
        guard let value = rest.popFirst() else {
          throw CommandFailure("\(argument) needs a value; usage: \(usage)", status: 2)
        }
        values[argument] = value
      } else {
        throw CommandFailure("unknown option \(argument); usage: \(usage)", status: 2)
      }
    }
  }

  /// The value of `option`, if given.
  func string(_ option: String) -> String? { values[option] }

  /// Whether the switch was given.
  func flag(_ option: String) -> Bool { flags.contains(option) }

  /// The value of `option` as an integer in `range`, or `defaultValue` when absent.
  func integer<Value: FixedWidthInteger>(
    _ option: String, default defaultValue: Value, in range: ClosedRange<Value>
  ) throws -> Value {
    guard let text = values[option] else { return defaultValue }
    guard let value = Value(text), range.contains(value) else {
      throw CommandFailure("\(option) must be a number in \(range), not \(text)", status: 2)
    }
    return value
  }

  /// The value of `option` as a number of seconds, or `defaultValue` when absent.
  func seconds(_ option: String, default defaultValue: Double) throws -> Double {
    guard let text = values[option] else { return defaultValue }
    guard let value = Double(text), value >= 0, value.isFinite else {
      throw CommandFailure("\(option) must be a non-negative number of seconds", status: 2)
    }
    return value
  }
}

/// What every command that signs or checks tokens says of its default credentials.
let credentialsHelp = """
    --key/--secret default to the development credentials, which token, serve, peer, every
    scenario and the SDK's development service share: key \(DevelopmentCredentials.key), secret
    \(DevelopmentCredentials.secret) (Docs/SessionService.md, "Development credentials").
  """
