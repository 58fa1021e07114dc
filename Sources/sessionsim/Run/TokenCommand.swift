import Foundation
import SessionCore
import SessionService
import SessionSimulation

/// `sessionsim token`: mints a development JWT, as the seeds' generator script does.
let tokenUsage = """
  token --session NAME [--role host|participant] [--key KEY] [--secret SECRET]
        [--expires SECONDS] [--issued-at EPOCH] [--user-key TEXT] [--session-key TEXT]

    --session      the session name (the tpc claim)
    --role         host (role_type 1) or participant (0; default)
    --key          the SDK key
    --secret       the SDK secret
    --expires      seconds from iat to exp, 1800 to 172800 (default 7200)
    --issued-at    iat in seconds since 1970 (default: now)
    --user-key, --session-key   optional claims

  Prints the token (HS256; claims app_key, tpc, role_type, version 1, iat, exp).
  For development only: sign production tokens on a server, never in an app.
  \(credentialsHelp)
  """

@Sendable func runToken(_ arguments: [String]) throws {
  let parser = try OptionParser(
    arguments,
    options: [
      "--session", "--role", "--key", "--secret", "--expires", "--issued-at", "--user-key",
      "--session-key",
    ], switches: [], usage: tokenUsage)
  guard let session = parser.string("--session"), !session.isEmpty else {
    throw CommandFailure("--session is required; usage: sessionsim \(tokenUsage)", status: 2)
  }
  let role: TokenRole
  switch parser.string("--role") ?? "participant" {
  case "host", "1": role = .host
  case "participant", "0": role = .participant
  case let other:
    throw CommandFailure("--role must be host or participant, not \(other)", status: 2)
  }
  let expires = try parser.integer("--expires", default: Int64(7_200), in: 1_800...172_800)
  let now = Int64(Date().timeIntervalSince1970)
  let issuedAt = try parser.integer("--issued-at", default: now, in: 0...Int64(1) << 40)
  let key = parser.string("--key") ?? DevelopmentCredentials.key
  let secret = parser.string("--secret") ?? DevelopmentCredentials.secret
  guard !key.isEmpty, !secret.isEmpty else {
    throw CommandFailure("--key and --secret must not be empty", status: 2)
  }
  let minter = TokenMinter(appKey: key, secret: secret)
  print(
    minter.mint(
      sessionName: session, role: role, issuedAt: issuedAt, expiresIn: expires,
      userKey: parser.string("--user-key"), sessionKey: parser.string("--session-key")))
}
