/// The first byte of every payload. Client-to-server types have the high bit clear,
/// server-to-client types have it set.
enum WireMessageType {
  // Client to server.
  static let hello: UInt8 = 0x01
  static let clientGoodbye: UInt8 = 0x02
  static let join: UInt8 = 0x10
  static let password: UInt8 = 0x11
  static let command: UInt8 = 0x12
  static let resume: UInt8 = 0x13
  static let clientHeartbeat: UInt8 = 0x14
  static let mediaRequest: UInt8 = 0x15

  // Server to client.
  static let helloAck: UInt8 = 0x81
  static let serverGoodbye: UInt8 = 0x82
  static let joined: UInt8 = 0x90
  static let joinRefused: UInt8 = 0x91
  static let passwordRequired: UInt8 = 0x92
  static let events: UInt8 = 0x93
  static let notice: UInt8 = 0x94
  static let commandFailed: UInt8 = 0x95
  static let left: UInt8 = 0x96
  static let serverHeartbeat: UInt8 = 0x97
  static let mediaNotice: UInt8 = 0x98
  static let fragment: UInt8 = 0x99
}
