import SessionCore
import SessionSDK
import Testing

@testable import SessionSimulation

/// The delivery properties, both ways: a well-formed sequence passes, each break is named.
@Suite struct DeliveryMonitorTests {
  private func monitor(_ callbacks: [VideoSDKCallback]) -> DeliveryMonitor {
    var monitor = DeliveryMonitor()
    for callback in callbacks { monitor.observe(callback) }
    return monitor
  }

  private func chat(_ id: String) -> ChatMessage {
    ChatMessage(id: id, sender: 2, receiver: nil, content: "hi", timestamp: 0)
  }

  @Test func aWellFormedSessionHasNoProblems() {
    let seen = monitor([
      .onSessionJoin, .onUserJoin([1, 2]), .onUserVideoStatusChanged([2]),
      .onUserHostChanged(1), .onChatNewMessageNotify(chat("m1")), .onUserLeave([2]),
      .onUserJoin([3]), .onSessionLeave(.bySelf), .onSessionJoin, .onUserJoin([1, 3]),
    ])
    #expect(seen.problems.isEmpty)
    #expect(seen.known == [1, 3])
    #expect(seen.inSession)
  }

  @Test func aSecondJoinOfTheSameUserIsADuplicate() {
    let seen = monitor([.onSessionJoin, .onUserJoin([1, 2]), .onUserJoin([2])])
    #expect(seen.problems == ["duplicate onUserJoin of #2"])
  }

  @Test func aLeaveOfAUserNeverJoinedIsNamed() {
    let seen = monitor([.onSessionJoin, .onUserJoin([1]), .onUserLeave([5])])
    #expect(seen.problems.count == 1)
    #expect(seen.problems.first?.contains("never joined") == true)
  }

  @Test func aCallbackAboutAUserAfterTheirLeaveIsNamed() {
    let seen = monitor([
      .onSessionJoin, .onUserJoin([1, 2]), .onUserLeave([2]), .onUserAudioStatusChanged([2]),
    ])
    #expect(seen.problems.count == 1)
    #expect(seen.problems.first?.contains("after onUserLeave") == true)
  }

  @Test func aCallbackBeforeTheSessionJoinIsNamed() {
    let seen = monitor([.onUserJoin([1]), .onUserNameChanged(1)])
    #expect(seen.problems.count == 2)
  }

  @Test func aChatMessageTwiceIsADuplicate() {
    let seen = monitor([
      .onSessionJoin, .onUserJoin([1, 2]), .onChatNewMessageNotify(chat("m1")),
      .onChatNewMessageNotify(chat("m1")),
    ])
    #expect(seen.problems == ["chat message m1 delivered twice"])
  }

  @Test func theSameChatIdInALaterSessionIsNoDuplicate() {
    let seen = monitor([
      .onSessionJoin, .onUserJoin([1, 2]), .onChatNewMessageNotify(chat("m1")),
      .onSessionLeave(.bySelf), .onSessionJoin, .onUserJoin([1, 2]),
      .onChatNewMessageNotify(chat("m1")),
    ])
    #expect(seen.problems.isEmpty)
  }

  @Test func monitorsSharingALedgerKeepTheirOwnColumns() {
    let ledger = DeliveryLedger(columns: 130, chatNumbers: ChatNumbers())
    var first = DeliveryMonitor(ledger: ledger, column: 0)
    var last = DeliveryMonitor(ledger: ledger, column: 129)
    for callback: VideoSDKCallback in [.onSessionJoin, .onUserJoin([1, 2])] {
      first.observe(callback)
    }
    for callback: VideoSDKCallback in [
      .onSessionJoin, .onUserJoin([2, 3]), .onChatNewMessageNotify(chat("m1")),
    ] {
      last.observe(callback)
    }
    #expect(first.known == [1, 2])
    #expect(last.known == [2, 3])
    #expect(last.hasDeliveredChat("m1") && !first.hasDeliveredChat("m1"))
    // What one saw is no evidence for the other, both ways.
    first.observe(.onUserVideoStatusChanged([3]))
    last.observe(.onUserVideoStatusChanged([1]))
    #expect(first.problems.count == 1 && last.problems.count == 1)
    // A reset (a new instance of the peer) forgets its column only.
    last.reset()
    #expect(last.known.isEmpty && last.problems.isEmpty && !last.hasDeliveredChat("m1"))
    #expect(first.known == [1, 2])
  }

  @Test func largeRowsLiveApartAndAnswerAsSmallOnesDo() {
    // Dense rows up to 64 here: larger user ids (or chat numbers) go to the sparse rows.
    var matrix = PeerBitMatrix(columns: 70, denseBytes: 64 * 16)
    #expect(matrix.denseRowLimit == 64)
    var span = RowSpan()
    for row: UInt32 in [3, 63, 64, 1_000_000, .max] {
      span.include(row)
      let inserted = matrix.insert(row: row, column: 69)
      let insertedAgain = matrix.insert(row: row, column: 69)
      #expect(inserted && !insertedAgain)
      #expect(matrix.contains(row: row, column: 69))
      #expect(!matrix.contains(row: row, column: 68))
    }
    #expect(matrix.rows(in: 69, within: span) == [3, 63, 64, 1_000_000, .max])
    let removed = matrix.remove(row: 1_000_000, column: 69)
    let removedAgain = matrix.remove(row: 1_000_000, column: 69)
    let removedUnset = matrix.remove(row: 5, column: 69)
    #expect(removed && !removedAgain && !removedUnset)
    matrix.clear(column: 69, within: span)
    #expect(matrix.rows(in: 69, within: span).isEmpty)
  }

  @Test func aHugeUserIdIsCheckedWithoutATableUpToIt() {
    let seen = monitor([
      .onSessionJoin, .onUserJoin([UserID(rawValue: .max), 1]),
      .onUserVideoStatusChanged([UserID(rawValue: .max)]), .onUserLeave([UserID(rawValue: .max)]),
      .onUserVideoStatusChanged([UserID(rawValue: .max)]),
    ])
    #expect(seen.problems.count == 1)
    #expect(seen.known == [1])
  }
}
